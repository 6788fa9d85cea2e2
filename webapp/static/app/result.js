// A dice result (engine.dice to_dict) as elements: the plain roll's here, a system's rolls by
// the result cards its dice.js registers (systems/index.js), each by the result's kind.
import { html } from "../vendor/htm-preact-standalone.module.js";
import { expression } from "./dice-kit.js";
import { DICE } from "./systems/index.js";

const rollBody = (r) => r.results.map(expression);

const BODIES = Object.assign({ roll: rollBody }, ...DICE.map((dice) => dice.results));

// A plain function, not a component (one per roll of the feed): see dice-kit.js.
export function resultView(result) {
  const body = BODIES[result.kind];
  if (!body) return html`<div class="line">${JSON.stringify(result)}</div>`;
  return html`<div class="result">
    ${result.comment ? html`<div class="comment">${result.comment}</div>` : null}
    ${body(result)}
  </div>`;
}
