// Storyteller screens beside the dice: the initiative board (the `st_fight` scene), loaded on
// demand (prefetched once a Storyteller game is open), and the character editor.
import { html, useEffect, useState } from "../../../vendor/htm-preact-standalone.module.js";
import { t } from "../../i18n.js";

export const tabs = [
  { name: "initiative", label: () => t("Initiative"), scene: "st_fight" },
  { name: "characters", label: () => t("Characters"), players: true },
];

let board = null;
function loadBoard() {
  board = board || import("./board.js");
  return board;
}

export function prefetch() {
  loadBoard();
}

let editor = null;
function loadEditor() {
  editor = editor || import("./editor.js");
  return editor;
}

function Characters({ game }) {
  const [mod, setMod] = useState(null);
  useEffect(() => { loadEditor().then(setMod); }, []);
  return mod ? html`<${mod.CharacterEditor} game=${game} />` : html`<p class="hint">${t("Loading…")}</p>`;
}

export function Screen({ tab, game, scenes, onScene }) {
  if (tab === "characters") return html`<${Characters} game=${game} />`;
  return html`<${Board} game=${game} scenes=${scenes} onScene=${onScene} />`;
}

function Board({ game, scenes, onScene }) {
  const [mod, setMod] = useState(null);
  useEffect(() => { loadBoard().then(setMod); }, []);
  if (!mod) return html`<p class="hint">${t("Loading…")}</p>`;
  return html`<${mod.FightBoard} game=${game} fight=${scenes.st_fight || null}
    onScene=${(next) => onScene("st_fight", next)} />`;
}
