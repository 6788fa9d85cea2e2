// The Storyteller's d10 pools on the page (seed 002): the pool form with its «шанс успеха»,
// the pool's entry in the roller's list and its result card.
import { html, useEffect, useState } from "../../../vendor/htm-preact-standalone.module.js";
import { request } from "../../api.js";
import { Switch, dice, total } from "../../dice-kit.js";
import { locale, t } from "../../i18n.js";

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

// The form's fields; `pool` is kept by the roller (a tab switch keeps it), `setPool` sets it.
function PoolForm({ game, value: pool, onChange: setPool }) {
  const setP = (key) => (e) => setPool({ ...pool, [key]: e.currentTarget.value });
  const chance = useChance(game, pool, true);
  return html`
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
      ${chance ? html`<p class="hint chance" data-testid="chance">${t("Chance of success: {percent}", { percent: percent(chance.success) })}${chance.botch ? " · " + t("botch: {percent}", { percent: percent(chance.botch) }) : ""}</p>` : null}`;
}

function poolBody(r) {
  let outcome;
  if (r.botch) outcome = total(t("botch"), "bad");
  else if (r.net <= 0) outcome = total(t("failure (no successes)"), "meh");
  else outcome = total(t("successes: {count}", { count: r.net }), "good");
  const flags = [r.specialty && t("specialty"), r.willpower && t("Willpower"),
    r.mode === "damage" && t("damage"), r.mode === "soak" && t("soak")].filter(Boolean);
  return html`
    <div class="line">${t("Dice: {count}, difficulty {difficulty}", { count: r.dice_count, difficulty: r.difficulty })}
      ${flags.length ? ` (${flags.join(", ")})` : ""}</div>
    <div class="line">${dice(r.dice)}
      ${r.bonus_dice.length ? html` + ${dice(r.bonus_dice)}` : null}</div>
    <div class="line">${t("Successes {successes}, ones {ones}", { successes: r.successes, ones: r.ones })} → ${outcome}</div>`;
}

export default {
  commands: () => [["pool", t("Pool d10"), "7 6 спец"]],
  results: { pool: poolBody },
  // a form of its own beside the notation field: the tab's name and label, the command it
  // rolls, its first value and the command's text from a value
  forms: [{
    name: "pool", label: () => t("Pool d10"), command: "pool",
    initial: { count: 5, difficulty: 6, comment: "", specialty: false, willpower: false },
    args: poolArgs, Form: PoolForm,
  }],
};
