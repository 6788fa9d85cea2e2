// The dice roller: a notation field for every command, a system's own form beside it (its
// dice.js's `forms`), with the «hidden roll» switch. Rolls go to POST
// /api/games/{token}/roll.
import { html, useEffect, useRef, useState } from "../vendor/htm-preact-standalone.module.js";
import { request } from "./api.js";
import { Switch } from "./dice-kit.js";
import { errorText, t } from "./i18n.js";
import { DICE, rollerDefaults } from "./systems/index.js";
import { haptic, mainButton, telegramButtons } from "./telegram.js";

// [API name, label, placeholder, a bad text offers rolling it as plain dice]: the plain roll
// and every system's (their dice.js)
const COMMANDS = () => [["roll", t("Roll"), "2к6+1 удар мечом"], ...DICE.flatMap((dice) => dice.commands())];
const FORMS = DICE.flatMap((dice) => dice.forms || []); // the systems' forms of their own

export function Roller({ game, onRolled }) {
  const defaults = rollerDefaults(game.system); // the system's first form and command
  const [tab, setTab] = useState(defaults.form);
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
  // a system's own form, and its tab, where its command is one of these
  const own = FORMS.find((f) => commands.some(([code]) => code === f.command));
  const [value, setValue] = useState(own ? own.initial : null); // kept across the tabs
  const inForm = own && tab === own.name;

  async function submit(event, as) {
    if (event) event.preventDefault();
    if (busy) return;
    const body = inForm
      ? { command: own.command, args: own.args(value), hidden }
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
      // «2к6+1 удар мечом» given to a command that reads dice otherwise (a system's, marked in
      // its entry): one tap rolls it as plain dice instead
      const offers = commands.some(([code, , , asPlain]) => asPlain && code === body.command);
      setPlain(e.code === "bad_dice" && offers && commands.some(([code]) => code === "roll"));
    } finally {
      setBusy(false);
    }
  }

  const placeholder = (commands.find((c) => c[0] === command) || commands[0])[2];
  return html`<form class="card roller" ref=${form} onSubmit=${submit} data-testid="roller">
    ${own ? html`<div class="tabs" role="tablist">
      <button type="button" role="tab" aria-selected=${tab === own.name} class=${tab === own.name ? "tab on" : "tab"}
        onClick=${() => setTab(own.name)}>${own.label()}</button>
      <button type="button" role="tab" aria-selected=${tab === "notation"} class=${tab === "notation" ? "tab on" : "tab"}
        onClick=${() => setTab("notation")}>${t("Notation")}</button>
    </div>` : null}
    ${inForm ? html`<${own.Form} game=${game} value=${value} onChange=${setValue} />` : html`
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
