// Storyteller screens beside the dice: the initiative board (the `st_fight` scene), loaded on
// demand (prefetched once a Storyteller game is open).
import { html, useEffect, useState } from "../../../vendor/htm-preact-standalone.module.js";
import { t } from "../../i18n.js";

export const tabs = [{ name: "initiative", label: () => t("Initiative"), scene: "st_fight" }];

let board = null;
function loadBoard() {
  board = board || import("./board.js");
  return board;
}

export function prefetch() {
  loadBoard();
}

export function Screen({ game, scenes, onScene }) {
  const [mod, setMod] = useState(null);
  useEffect(() => { loadBoard().then(setMod); }, []);
  if (!mod) return html`<p class="hint">${t("Loading…")}</p>`;
  return html`<${mod.FightBoard} game=${game} fight=${scenes.st_fight || null}
    onScene=${(next) => onScene("st_fight", next)} />`;
}
