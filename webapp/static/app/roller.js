// The dice roller: the d10 pool form of seed 002 and a notation field for every command,
// with the «hidden roll» switch. Rolls go to POST /api/games/{token}/roll.
import { html, useEffect, useRef, useState } from "../vendor/htm-preact-standalone.module.js";
import { request } from "./api.js";
import { errorText, locale, t } from "./i18n.js";
import { rollerDefaults } from "./systems/index.js";
import { haptic, mainButton, telegramButtons } from "./telegram.js";

const COMMANDS = () => [
  ["roll", t("Roll"), "2к6+1 удар мечом"],
  ["trait", t("Trait roll"), "d8+1 цн 4"],
  ["damage", t("Damage"), "2d6+1 vs 6"],
  ["pool", t("Pool d10"), "7 6 спец"],
  ["duel", t("Duel check"), "+2 трюк"],
];

export function poolArgs({ count, difficulty, specialty, willpower, comment }) {
  let args = `${count} ${difficulty}`;
  if (specialty) args += " спец";
  if (willpower) args += " вс";
  if (comment.trim()) args += ` — ${comment.trim()}`;
  return args;
}

// «шанс успеха»: the exact odds of the pool form's pool (GET .../odds), asked once it settles
function useChance(game, pool, on) {
  const [chance, setChance] = useState(null);
  const args = poolArgs({ ...pool, comment: "" });
  useEffect(() => {
    if (!on) return undefined;
    const timer = setTimeout(() => {
      request("GET", `/api/games/${encodeURIComponent(game.token)}/odds?pool=${encodeURIComponent(args)}`)
        .then((d) => setChance(d.odds), () => setChance(null));
    }, 150);
    return () => clearTimeout(timer);
  }, [args, on]);
  return chance;
}

function percent(p) {
  const text = (Math.round(p * 1000) / 10).toFixed(1);
  return (locale === "ru" ? text.replace(".", ",") : text) + " %";
}

function Switch({ checked, onChange, label, name }) {
  return html`<label class="switch">
    <input type="checkbox" role="switch" name=${name} checked=${checked}
      onChange=${(e) => onChange(e.currentTarget.checked)} />
    <span class="track" aria-hidden="true"></span><span>${label}</span></label>`;
}

export function Roller({ game, onRolled }) {
  const defaults = rollerDefaults(game.system); // the system's first form and command
  const [tab, setTab] = useState(defaults.form);
  const [pool, setPool] = useState({ count: 5, difficulty: 6, comment: "", specialty: false, willpower: false });
  const [command, setCommand] = useState(defaults.roll);
  const [notation, setNotation] = useState("");
  const [hidden, setHidden] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");
  const [plain, setPlain] = useState(false); // the error offers rolling it as «Бросок»
  const form = useRef(null);
  // «Сделать бросок» is Telegram's MainButton inside Telegram (the form's submit, checks included)
  useEffect(() => (telegramButtons
    ? mainButton(t("Roll the dice"), () => form.current && form.current.requestSubmit()) : undefined), []);
  // the system's roll commands (all of them for a system the page does not know)
  const commands = COMMANDS().filter(([code]) => !defaults.rolls || defaults.rolls.includes(code));
  const pooled = commands.some(([code]) => code === "pool"); // the d10 pool form, and its tab
  const setP = (key) => (e) => setPool({ ...pool, [key]: e.currentTarget.value });
  const chance = useChance(game, pool, pooled && tab === "pool");

  async function submit(event, as) {
    if (event) event.preventDefault();
    if (busy) return;
    const body = pooled && tab === "pool"
      ? { command: "pool", args: poolArgs(pool), hidden }
      : { command: as || command, args: notation, hidden };
    if (as) setCommand(as);
    setBusy(true);
    setError("");
    setPlain(false);
    haptic("tap");
    try {
      const data = await request("POST", `/api/games/${encodeURIComponent(game.token)}/roll`, body);
      haptic("success");
      onRolled(data.roll);
    } catch (e) {
      haptic("error");
      setError(errorText(e));
      // «2к6+1 удар мечом» as a trait roll: one tap rolls it as plain dice instead
      setPlain(e.code === "bad_dice" && body.command === "trait" && commands.some(([code]) => code === "roll"));
    } finally {
      setBusy(false);
    }
  }

  const placeholder = (commands.find((c) => c[0] === command) || commands[0])[2];
  return html`<form class="card roller" ref=${form} onSubmit=${submit} data-testid="roller">
    ${pooled ? html`<div class="tabs" role="tablist">
      <button type="button" role="tab" aria-selected=${tab === "pool"} class=${tab === "pool" ? "tab on" : "tab"}
        onClick=${() => setTab("pool")}>${t("Pool d10")}</button>
      <button type="button" role="tab" aria-selected=${tab === "notation"} class=${tab === "notation" ? "tab on" : "tab"}
        onClick=${() => setTab("notation")}>${t("Notation")}</button>
    </div>` : null}
    ${pooled && tab === "pool" ? html`
      <div class="row">
        <label class="field"><span>${t("Number of dice")}</span>
          <input name="count" type="number" inputmode="numeric" min="1" max="50" required
            value=${pool.count} onInput=${setP("count")} /></label>
        <label class="field"><span>${t("Difficulty")}</span>
          <input name="difficulty" type="number" inputmode="numeric" min="2" max="10" required
            value=${pool.difficulty} onInput=${setP("difficulty")} /></label>
      </div>
      <label class="field"><span>${t("Comment")}</span>
        <input name="comment" type="text" maxlength="200" value=${pool.comment} onInput=${setP("comment")} /></label>
      <div class="row">
        <${Switch} name="specialty" checked=${pool.specialty} label=${t("Specialty")}
          onChange=${(v) => setPool({ ...pool, specialty: v })} />
        <${Switch} name="willpower" checked=${pool.willpower} label=${t("Willpower")}
          onChange=${(v) => setPool({ ...pool, willpower: v })} />
      </div>
      ${chance ? html`<p class="hint chance" data-testid="chance">${t("Chance of success: {percent}", { percent: percent(chance.success) })}${chance.botch ? " · " + t("botch: {percent}", { percent: percent(chance.botch) }) : ""}</p>` : null}` : html`
      <label class="field"><span>${t("What to roll")}</span>
        <select name="command" value=${command} onChange=${(e) => setCommand(e.currentTarget.value)}>
          ${commands.map(([value, label]) => html`<option value=${value}>${label}</option>`)}
        </select></label>
      <label class="field"><span>${t("Dice and comment")}</span>
        <input name="notation" type="text" maxlength="500" required autocomplete="off"
          placeholder=${placeholder} value=${notation} onInput=${(e) => setNotation(e.currentTarget.value)} /></label>`}
    <${Switch} name="hidden" checked=${hidden} onChange=${setHidden} label=${t("Hidden roll")} />
    ${hidden ? html`<p class="hint">${t("Only you and the GM see the result; the chat gets a sealed receipt.")}</p>` : null}
    ${error ? html`<p class="error" role="alert">${error}</p>` : null}
    ${plain ? html`<button type="button" class="secondary" name="roll-plain" disabled=${busy}
      onClick=${() => submit(null, "roll")}>${t("Roll it as «{command}»", { command: t("Roll") })}</button>` : null}
    ${telegramButtons ? null : html`<button class="primary" type="submit" disabled=${busy}>${t("Roll the dice")}</button>`}
  </form>`;
}
