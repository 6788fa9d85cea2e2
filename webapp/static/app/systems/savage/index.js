// Savage Worlds screens beside the dice: the initiative board (the `encounter` scene), the chase
// row (the `chase` scene) and the character editor (not for spectators). This module is small;
// the boards and the editor are loaded on demand (the boards prefetched once a Savage game is
// open) so they do not delay the first render.
import { html, useEffect, useState } from "../../../vendor/htm-preact-standalone.module.js";
import { t } from "../../i18n.js";

export const tabs = [
  { name: "initiative", label: () => t("Initiative"), scene: "encounter" },
  { name: "chase", label: () => t("Chase"), scene: "chase" },
  { name: "characters", label: () => t("Characters"), players: true },
];

let boards = null; // the board modules, loaded once
function loadBoards() {
  boards = boards || Promise.all([import("./initiative.js"), import("./chase.js")]);
  return boards;
}

let editor = null; // the character editor, loaded when its tab is first opened
function loadEditor() {
  editor = editor || import("./editor.js");
  return editor;
}

let actions = null; // the fight's rolls in the feed (loaded with the boards)
const ROLLED = ["rolled", "rerolled", "damage_rolled"]; // as actions.js

// Has the fight rolled anything? (the feed then lists those rolls: FeedRolls)
export const fightRolled = (scenes) => Boolean(scenes.encounter && (scenes.encounter.log || [])
  .some((s) => s.items.some((i) => ROLLED.includes(i.kind))));

export function FeedRolls({ scenes }) {
  const [mod, setMod] = useState(null);
  useEffect(() => { actions = actions || import("./actions.js"); actions.then(setMod); }, []);
  return mod && scenes.encounter ? html`<${mod.FightRolls} log=${scenes.encounter.log} />` : null;
}

export function prefetch() {
  loadBoards();
}

function Boards({ tab, game, scenes, onScene }) {
  const [mods, setMods] = useState(null);
  useEffect(() => { loadBoards().then(setMods); }, []);
  if (!mods) return html`<p class="hint">${t("Loading…")}</p>`;
  const [{ InitiativeBoard }, { ChaseBoard }] = mods;
  const { encounter = null, chase = null } = scenes;
  return tab === "initiative"
    ? html`<${InitiativeBoard} game=${game} encounter=${encounter} chase=${chase} active=${true}
        onScene=${(next) => onScene("encounter", next)} />`
    : html`<${ChaseBoard} game=${game} encounter=${encounter} chase=${chase}
        onScene=${(next) => onScene("chase", next)} />`;
}

function Characters({ game }) {
  const [mod, setMod] = useState(null);
  useEffect(() => { loadEditor().then(setMod); }, []);
  return mod ? html`<${mod.CharacterEditor} game=${game} />` : html`<p class="hint">${t("Loading…")}</p>`;
}

export function Screen({ tab, ...props }) {
  return tab === "characters" ? html`<${Characters} game=${props.game} />` : html`<${Boards} tab=${tab} ...${props} />`;
}
