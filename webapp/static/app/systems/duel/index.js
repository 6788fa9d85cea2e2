// The forum duel beside the dice: the game's duels (the `duel` scene, one per forum topic), each
// with its board (HP, SP, AP, states, sealed receipts, the published turns), a fighter's
// submission form and the GM's review. Live: the scene's pushes are each viewer's projection
// (engine/duel/observe.py), so the opponent's unpublished submission never reaches this page.
import { html, useEffect, useRef, useState } from "../../../vendor/htm-preact-standalone.module.js";
import { request } from "../../api.js";
import { describe, errorText, locale, rememberNames, t } from "../../i18n.js";
import { confirmAction, mainButton, telegramButtons } from "../../telegram.js";

export const tabs = [
  { name: "duel", label: () => t("Duel"), scene: "duel" },
  { name: "fighters", label: () => t("Fighters"), players: true },
  { name: "rules", label: () => t("Rules") },
];
export function prefetch() {}

let editor = null; // the fighter editor, loaded when its tab is first opened
function Fighters({ game }) {
  const [mod, setMod] = useState(null);
  useEffect(() => { editor = editor || import("./fighters.js"); editor.then(setMod); }, []);
  return mod ? html`<${mod.FighterEditor} game=${game} />` : html`<p class="hint">${t("Loading…")}</p>`;
}

let readings = null; // the game's readings of the rules, loaded when the tab is first opened
function Readings({ game, running }) {
  const [mod, setMod] = useState(null);
  useEffect(() => { readings = readings || import("./rules.js"); readings.then(setMod); }, []);
  return mod ? html`<${mod.Rules} game=${game} running=${running} />` : html`<p class="hint">${t("Loading…")}</p>`;
}
// The duels going on, as the live scene has them: the Rules tab reads its list again when it changes.
const runningKey = (scene) => (scene ? scene.duels.filter((d) => !d.over).map((d) => d.stream).join(" ") : "");

const DIRS = ["left", "top", "right"];
// A receipt's first 12 hex characters in groups of four (engine/receipt.py short_code): what the
// topic's sealed notice shows; the whole hash is revealed with the turn.
const shortCode = (receipt) => receipt.slice(0, 12).match(/.{1,4}/g).join("-");
const ARROW = { left: "⬅️", top: "⬆️", right: "➡️" };
const sideName = (d) => ({ left: t("left"), top: t("top"), right: t("right") })[d];

function useSend(game, onScene) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");
  async function send(command, args) {
    if (busy) return false;
    setBusy(true);
    setError("");
    try {
      const data = await request("POST", `/api/games/${encodeURIComponent(game.token)}/duel`, { command, ...args });
      onScene(data.duel);
      return true;
    } catch (e) {
      setError(errorText(e));
      return false;
    } finally {
      setBusy(false);
    }
  }
  return { send, busy, error };
}

function Line({ d, names }) {
  const named = (key, value, kind) => (kind === "name" ? names[value] || value
    : kind && kind.startsWith("label:") ? describe({ code: `${kind.slice(6)}.${value}`, params: {} }).join("") : String(value));
  return html`<li>${describe(d, named)}</li>`;
}

function States({ f }) {
  const chips = [];
  if (f.dead) chips.push([t("dead"), "bad"]);
  if (f.exhausted) chips.push([t("exhausted"), "warn"]);
  if (f.bleeding_turns) chips.push([t("bleeding: {n}", { n: f.bleeding_turns }), "bad"]);
  if (f.standing_up) chips.push([t("knocked down"), "warn"]);
  if (f.lost_actions) chips.push([t("an action lost"), "warn"]);
  if (f.extra_actions) chips.push([t("an extra action"), "good"]);
  if (f.attack_bonus) chips.push([t("+{n} to the attack", { n: f.attack_bonus }), "good"]);
  if (f.defense_bonus) chips.push([t("+{n} to defense", { n: f.defense_bonus }), "good"]);
  if (f.series > 1) chips.push([t("series: {n}", { n: f.series }), "good"]);
  return html`<div class="badges">${chips.map(([text, kind]) => html`<span class=${"chip chip-" + kind}>${text}</span>`)}</div>`;
}

function FighterCard({ f, over }) {
  const hp = f.sheet.stats.hp;
  const pct = Math.max(0, Math.min(100, Math.round((100 * f.hp) / Math.max(hp, 1))));
  return html`<div class=${"duelist" + (f.dead ? " out" : "")} data-fighter=${f.id}>
    <div class="duelist-head"><b>${f.name}</b><span class="hint">${f.sheet.fighter_class.name}</span></div>
    <div class="hpbar" role="img" aria-label=${t("HP {hp} of {max}", { hp: f.hp, max: hp })}><span style=${`width:${pct}%`}></span></div>
    <div class="nums"><span>${t("HP")} <b>${f.hp}</b>/${hp}</span><span>${t("SP")} <b>${f.sp}</b></span><span>${t("AP (action points)")} <b>${f.ap}</b></span></div>
    <${States} f=${f} />
    ${over ? null : html`<div class=${"sealed" + (f.submitted ? " in" : "")}>${f.submitted ? t("🔒 Sent: {receipt}", { receipt: shortCode(f.receipt) }) : t("⏳ Not sent yet")}</div>`}
  </div>`;
}

function Stepper({ label, value, onMinus, onPlus, name }) {
  return html`<div class="stepper" data-stepper=${name}>
    <button type="button" class="step" aria-label=${t("less")} onClick=${onMinus}>−</button>
    <span>${label}: <b>${value}</b></span>
    <button type="button" class="step" aria-label=${t("more")} onClick=${onPlus}>+</button></div>`;
}

function actionText(a, moves) {
  if (a.kind === "attack") {
    const move = (moves.find((m) => m.code === a.move) || {}).name || a.move;
    // a move called just «Атака» is not named twice («Атака «Атака»»)
    if (move.toLowerCase() === t("Attack").toLowerCase()) return t("Attack {side}", { side: ARROW[a.direction] });
    return t("Attack «{move}» {side}", { move, side: ARROW[a.direction] });
  }
  if (a.kind === "trick") return t("Trick");
  if (a.kind === "block") return t("Block {side}", { side: ARROW[a.direction] });
  if (a.kind === "dodge") return t("Dodge {side}", { side: ARROW[a.direction] });
  return (a.dodge ? t("Full dodge {side}", { side: ARROW[a.direction] }) : t("Full defense {side}", { side: ARROW[a.direction] }));
}

function Form({ duel, f, cmd, main }) {
  const [actions, setActions] = useState([]);
  const [kind, setKind] = useState("");
  const [comment, setComment] = useState("");
  const allowed = f.allowed;
  const moves = f.sheet.fighter_class.moves;
  const used = actions.reduce((n, a) => n + (a.kind === "full_defense" ? 2 : 1), 0);
  const defenses = actions.filter((a) => a.kind !== "attack" && a.kind !== "trick").length;
  const ap = actions.reduce((n, a) => n + (a.ap || 0) + (a.damage_ap || 0) + 2 * (a.ease || 0), 0);
  const kinds = [];
  if (allowed.attack) moves.forEach((m) => kinds.push([`attack:${m.code}`, `⚔️ ${m.name} · ${t("{sp} SP", { sp: actions.some((a) => a.kind === "attack") ? m.second_sp ?? m.sp + 1 : m.sp })}`]));
  if (allowed.trick && !actions.length) kinds.push(["trick", `🎭 ${t("Trick")}`]);
  if (defenses < allowed.defenses) kinds.push(["block", `🛡 ${t("Block")}`], ["dodge", `💨 ${t("Dodge")}`]);
  if (allowed.full_defense && !actions.length) kinds.push(["full_defense", `🛡🛡 ${t("Full defense")}`]);
  if (allowed.full_dodge && !actions.length) kinds.push(["full_dodge", `💨💨 ${t("Full dodge")}`]);
  const room = used < allowed.actions + (allowed.extra_attacks || 0);
  function add(direction) {
    const base = { ap: 0, situational: 0 };
    const [k, move] = kind.split(":");
    const a = k === "attack" ? { kind: "attack", direction, move, damage_ap: 0, ...base }
      : k === "trick" ? { kind: "trick", ease: 0, ...base }
      : k === "full_defense" || k === "full_dodge" ? { kind: "full_defense", direction, dodge: k === "full_dodge", ...base }
      : { kind: k, direction, ...base };
    setActions([...actions, a]);
    setKind("");
  }
  function bump(i, key, delta) {
    const next = actions.map((a, j) => (j === i ? { ...a, [key]: Math.max(0, (a[key] || 0) + delta) } : a));
    setActions(next);
  }
  const submit = () => cmd.send("submit", { thread: duel.thread, fighter: f.id, turn: duel.turn, actions, comment, seals: f.seals })
    .then((ok) => ok && (setActions([]), setComment("")));
  useMain(main && actions.length ? main : "", submit);
  return html`<section class="card duel-form" data-form=${f.id}>
    <h3>${t("Your turn {turn}: {name}", { turn: duel.turn, name: f.name })}</h3>
    <p class="hint">${t("Actions: {n} · AP: {ap} of {total}", { n: allowed.actions, ap, total: allowed.ap })}</p>
    <ol class="declared">${actions.map((a, i) => html`<li>
      <span>${actionText(a, moves)}</span>
      ${allowed.ap ? html`<${Stepper} name=${`ap-${i}`} label=${t("AP (action points)")} value=${a.ap} onMinus=${() => bump(i, "ap", -1)} onPlus=${() => bump(i, "ap", 1)} />` : null}
      ${a.kind === "attack" && allowed.ap_to_damage ? html`<${Stepper} name=${`dmg-${i}`} label=${t("AP to damage")} value=${a.damage_ap} onMinus=${() => bump(i, "damage_ap", -1)} onPlus=${() => bump(i, "damage_ap", 1)} />` : null}
      ${a.kind === "trick" && allowed.ap ? html`<${Stepper} name=${`ease-${i}`} label=${t("Difficulty −1 (2 AP)")} value=${a.ease} onMinus=${() => bump(i, "ease", -1)} onPlus=${() => bump(i, "ease", 1)} />` : null}
    </li>`)}</ol>
    ${room ? html`<div class="kinds">${kinds.map(([k, label]) => html`<button type="button" class=${"big" + (kind === k ? " on" : "")} data-kind=${k} aria-pressed=${kind === k} onClick=${() => (k === "trick" ? (setKind(""), setActions([...actions, { kind: "trick", ap: 0, ease: 0, situational: 0 }])) : setKind(k))}>${label}</button>`)}</div>` : null}
    ${kind ? html`<div class="dirs">${DIRS.map((d) => html`<button type="button" class="big dir" data-dir=${d} onClick=${() => add(d)}><span class="arrow">${ARROW[d]}</span>${sideName(d)}</button>`)}</div>` : null}
    <label class="field"><span>${t("Comment to the GM")}</span>
      <textarea name="comment" maxlength="500" rows="2" value=${comment} onInput=${(e) => setComment(e.currentTarget.value)}></textarea></label>
    <div class="acts">
      ${main && telegramButtons ? null : html`<button type="button" class=${"act" + (main ? " primary-act" : "")} data-command="submit"
        disabled=${cmd.busy || !actions.length} onClick=${submit}>${t("Send the turn")}</button>`}
      <button type="button" class="act" data-command="reset" disabled=${!actions.length} onClick=${() => setActions([])}>${t("Start over")}</button>
    </div>
    ${cmd.error ? html`<p class="error" role="alert">${cmd.error}</p>` : null}
  </section>`;
}

// Every d10 of a fighter's sealed submission as [action, check, label]: full defense rolls two
// («Делается два броска, из которых выбирается наибольший»), and the GM may change either. Each
// shows the face the turn is resolved with — the GM's last change of it, as the chat's review
// buttons do (engine/duel/adjust.py `adjusted`); the sealed face is in the change's line only.
function dice(sub, adjustments) {
  if (!sub) return [];
  const face = (i, j, sealed) => (adjustments || []).reduce((f, a) => (a.code === "adjusted_roll" && a.fighter === sub.fighter
    && a.params.action === i + 1 && (a.params.check || 0) === j ? a.params.face : f), sealed);
  const label = (n, j, two, face) => (!two ? t("action {n}, d10: {face}", { n, face })
    : j ? t("action {n}, second d10: {face}", { n, face }) : t("action {n}, first d10: {face}", { n, face }));
  return sub.rolls.flatMap((roll, i) => roll.checks.map((c, j) => [i, j, label(i + 1, j, roll.checks.length > 1, face(i, j, c.die.value))]));
}

function Review({ duel, cmd, main }) {
  const [field, setField] = useState("hp");
  const [fighter, setFighter] = useState(duel.fighters[0].id);
  const [value, setValue] = useState("");
  const [roll, setRoll] = useState("0:0");
  const [reason, setReason] = useState("");
  const ready = !!duel.proposal;
  const rolls = dice(duel.submissions[fighter], duel.proposal && duel.proposal.adjustments);
  const [action, check] = roll.split(":").map(Number);
  const pickFighter = (id) => { setFighter(id); setRoll("0:0"); };
  // «Опубликовать ход N» is Telegram's MainButton when this review owns it (`main`: its text)
  const publishText = t("Publish turn {turn}", { turn: duel.turn });
  const publish = () => cmd.send("publish", { thread: duel.thread, turn: duel.turn });
  useMain(ready && main ? main : "", publish);
  return html`<section class="card duel-review">
    <h3>${t("The GM's review of turn {turn}", { turn: duel.turn })}</h3>
    <ul class="lines">${duel.review.map((d) => html`<${Line} d=${d} names=${duel.names} />`)}</ul>
    ${Object.values(duel.submissions).filter((s) => s.comment).map((s) => html`<p class="comment" data-comment=${s.fighter}>
      ${t("Comment to the GM")} (${duel.names[s.fighter]}): ${s.comment}</p>`)}
    ${ready ? html`<div class="row adjust">
      <select name="fighter" value=${fighter} aria-label=${t("fighter")} onChange=${(e) => pickFighter(e.currentTarget.value)}>${duel.fighters.map((f) => html`<option value=${f.id}>${f.name}</option>`)}</select>
      <select name="field" value=${field} aria-label=${t("what to change")} onChange=${(e) => setField(e.currentTarget.value)}>
        <option value="roll">${t("d10 of an action")}</option><option value="hp">${t("HP")}</option><option value="sp">${t("SP")}</option>
        <option value="bleeding_turns">${t("bleeding turns")}</option><option value="exhausted_turns">${t("exhaustion turns")}</option>
        <option value="standing_up">${t("knocked down (1 yes, 0 no)")}</option><option value="lost_actions">${t("actions lost")}</option>
        <option value="extra_actions">${t("extra actions")}</option><option value="attack_bonus">${t("attack bonus")}</option>
        <option value="defense_bonus">${t("defense bonus")}</option></select>
      ${field === "roll" ? html`<select name="roll" value=${roll} aria-label=${t("which d10")} onChange=${(e) => setRoll(e.currentTarget.value)}>
        ${rolls.map(([i, j, label]) => html`<option value=${`${i}:${j}`}>${label}</option>`)}</select>` : null}
      <input name="value" type="number" inputmode="numeric" value=${value} aria-label=${t("value")} onInput=${(e) => setValue(e.currentTarget.value)} />
      <input name="reason" type="text" maxlength="200" placeholder=${t("reason")} value=${reason} onInput=${(e) => setReason(e.currentTarget.value)} />
      <button type="button" class="act" data-command="adjust" disabled=${cmd.busy || value === "" || !reason.trim()}
        onClick=${() => cmd.send("adjust", { thread: duel.thread, turn: duel.turn, fighter, field, value: Number(value), reason: reason.trim(), action, check }).then((ok) => ok && (setValue(""), setReason("")))}>${t("Change")}</button>
    </div>` : html`<p class="hint">${duel.over ? t("The duel is over") : t("Waiting for both submissions.")}</p>`}
    <div class="acts">
      ${ready && !(main && telegramButtons) ? html`<button type="button" class=${"act" + (main ? " primary-act" : "")} data-command="publish"
        disabled=${cmd.busy} onClick=${publish}>${publishText}</button>` : null}
      <button type="button" class="act" data-command="undo" disabled=${cmd.busy} onClick=${() => cmd.send("undo", { thread: duel.thread, seq: duel.seq, stream: duel.stream })}>${t("Undo the last step")}</button>
    </div>
    ${cmd.error ? html`<p class="error" role="alert">${cmd.error}</p>` : null}
  </section>`;
}

// This turn's time (the duel's deadline): when it runs out, in the viewer's own clock.
function DueLine({ duel }) {
  if (!duel.due || duel.over) return null;
  const passed = duel.overdue || duel.due * 1000 <= Date.now();
  const when = new Date(duel.due * 1000).toLocaleString(locale, { day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" });
  return html`<p class=${"due" + (passed ? " passed" : "")} data-due=${duel.due}>${passed ? t("⏰ The deadline of this turn has passed.") : t("⏰ The turn is due by {time}.", { time: when })}</p>`;
}

const POLICY_NAMES = () => ({ ask: t("the GM decides (a default defense by a button)"), defend: t("a default defense is sealed"), wait: t("the turn waits") });
// The same choices in a few words: the select shows one line on a phone (the hint says it in full).
const POLICY_CHOICES = () => ({ ask: t("the GM decides"), defend: t("a default defense"), wait: t("the turn waits") });

// The GM's deadline: the hours of each turn and what happens when they are out; at the deadline,
// a default defense for each fighter still silent (unless the duel waits).
function Deadline({ duel, cmd }) {
  const [hours, setHours] = useState(String(duel.deadline ? duel.deadline.hours : 24));
  const [policy, setPolicy] = useState(duel.deadline ? duel.deadline.policy : "ask");
  const names = POLICY_NAMES();
  const choices = POLICY_CHOICES();
  const set = (h) => cmd.send("deadline", { thread: duel.thread, hours: h, policy });
  const silent = duel.overdue && (!duel.deadline || duel.deadline.policy !== "wait") ? duel.missing : [];
  return html`<section class="card duel-deadline">
    <h3>${t("Deadline of each turn")}</h3>
    <p class="hint">${duel.deadline ? t("{hours} h; then {policy}", { hours: duel.deadline.hours, policy: names[duel.deadline.policy] }) : t("No deadline")}</p>
    <div class="row">
      <input name="hours" type="number" min="1" max="720" inputmode="numeric" value=${hours} aria-label=${t("hours")} onInput=${(e) => setHours(e.currentTarget.value)} />
      <select name="policy" value=${policy} aria-label=${t("When the time is up")} onChange=${(e) => setPolicy(e.currentTarget.value)}>${["ask", "defend", "wait"].map((p) => html`<option value=${p}>${choices[p]}</option>`)}</select>
      <button type="button" class="act" data-command="deadline" disabled=${cmd.busy || !(Number(hours) >= 1)} onClick=${() => set(Number(hours))}>${t("Set")}</button>
      ${duel.deadline ? html`<button type="button" class="act" data-command="no-deadline" disabled=${cmd.busy} onClick=${() => set(null)}>${t("No deadline")}</button>` : null}
    </div>
    ${silent.map((f) => html`<button type="button" class="act" data-command="default" data-fighter=${f} disabled=${cmd.busy}
      onClick=${() => cmd.send("default", { thread: duel.thread, turn: duel.turn, fighter: f })}>${t("🛡 Default defense: {name}", { name: duel.names[f] })}</button>`)}
  </section>`;
}

// Telegram's MainButton carries `text` (none: hidden) and runs the latest render's `action`.
function useMain(text, action) {
  const latest = useRef(action);
  latest.current = action;
  useEffect(() => (telegramButtons && text ? mainButton(text, () => latest.current()) : undefined), [text]);
}

// This viewer's fighters who still have this turn to send.
const myForms = (duel) => duel.fighters.filter((f) => duel.mine.includes(f.id) && !f.submitted && !f.dead && !duel.over);
const readyToPublish = (duel) => Boolean(duel.review && duel.proposal && !duel.over);

// The screen's one primary action when several duels run: the first duel (in the page's order)
// that waits for this viewer — a fighter's turn to send, else the GM's publication — owns the
// MainButton (its text names the duel when another one waits too); the others keep plain
// buttons of their own. Returns {stream, form (a fighter's id, or "" for the review), text}.
function mainOwner(duels) {
  const waiting = duels.filter((d) => myForms(d).length || readyToPublish(d));
  if (!waiting.length) return null;
  const d = waiting[0];
  const [form] = myForms(d);
  const text = form ? t("Send the turn") : t("Publish turn {turn}", { turn: d.turn });
  const named = t("{action}: {a} — {b}", { action: text, a: d.fighters[0].name, b: d.fighters[1].name });
  return { stream: d.stream, form: form ? form.id : "", text: waiting.length > 1 && named.length <= 64 ? named : text };
}

function Duel({ duel, game, onScene, owner }) {
  const cmd = useSend(game, onScene);
  rememberNames(Object.entries(duel.names));
  const mine = myForms(duel);
  const main = owner && owner.stream === duel.stream ? owner : null;
  const [a, b] = duel.fighters;
  return html`<article class="board duel" data-thread=${duel.thread}>
    <div class="board-head"><h2>${a.name} — ${b.name}</h2><span class="hint">${duel.over ? t("The duel is over") : t("Turn {turn}", { turn: duel.turn })}</span></div>
    <${DueLine} duel=${duel} />
    <div class="duelists">${duel.fighters.map((f) => html`<${FighterCard} key=${f.id} f=${f} over=${duel.over} />`)}</div>
    ${mine.map((f) => html`<${Form} key=${f.id + duel.turn} duel=${duel} f=${f} cmd=${cmd}
      main=${main && main.form === f.id ? main.text : ""} />`)}
    ${duel.review ? html`<${Review} duel=${duel} cmd=${cmd} main=${main && !main.form ? main.text : ""} />` : null}
    ${duel.review && !duel.over ? html`<${Deadline} duel=${duel} cmd=${cmd} />` : null}
    ${game.role === "gm" && !duel.over ? html`<button type="button" class="act danger" data-command="stop" disabled=${cmd.busy}
      onClick=${async () => { if (await confirmAction(t("Stop this duel for everyone? The topic gets the result so far; the unfinished turn is not revealed."))) cmd.send("stop", { thread: duel.thread }); }}>${t("⏹ Stop the duel")}</button>` : null}
    ${duel.posts.length ? html`<h3>${t("Turns")}</h3>` : null}
    ${[...duel.posts].reverse().map((p) => html`<details class="card post" open=${p === duel.posts[duel.posts.length - 1]}>
      <summary>${describe(p[0]).join("")}</summary><ul class="lines">${p.slice(1).map((d) => html`<${Line} d=${d} names=${duel.names} />`)}</ul></details>`)}
  </article>`;
}

export function Screen({ tab, game, scenes, onScene }) {
  if (tab === "fighters") return html`<${Fighters} game=${game} />`;
  if (tab === "rules") return html`<${Readings} game=${game} running=${runningKey(scenes.duel)} />`;
  const scene = scenes.duel;
  if (!scene || !scene.duels.length) return html`<p class="hint">${t("No duel yet: the GM starts one in the chat with /duel.")}</p>`;
  const owner = mainOwner(scene.duels);
  return html`${scene.duels.map((d) => html`<${Duel} key=${d.stream} duel=${d} game=${game} owner=${owner}
    onScene=${(next) => onScene("duel", next)} />`)}`;
}
