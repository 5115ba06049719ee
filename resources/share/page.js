// The players' page of a shared fight: shows what the server sends (the player view's data
// only), lets the player claim a fighter and type the faces of that fighter's waiting roll.
// Every text goes in as textContent, never as markup. Reconnects by itself.
"use strict";

const base = location.pathname.endsWith("/") ? location.pathname : location.pathname + "/";
const deviceKey = "fightdesk-device:" + base;
let socket = null;
let state = null;
let retry = 500;
let stopped = false;

function $(id) { return document.getElementById(id); }

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined && text !== null) node.textContent = String(text);
  return node;
}

function status(text, off) {
  const line = $("status");
  line.textContent = text;
  line.classList.toggle("off", Boolean(off));
}

function say(text) {
  const line = $("line");
  line.textContent = text;
  line.hidden = !text;
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss://" : "ws://";
  let device = "";
  try { device = localStorage.getItem(deviceKey) || ""; } catch (e) { device = ""; }
  socket = new WebSocket(scheme + location.host + base + "ws?device=" + encodeURIComponent(device));
  socket.onopen = () => { retry = 500; status("Live"); };
  socket.onmessage = (event) => {
    let message;
    try { message = JSON.parse(event.data); } catch (e) { return; }
    handle(message);
  };
  socket.onclose = () => {
    socket = null;
    if (stopped) return;
    status("Connection lost: reconnecting...", true);
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 5000);
  };
}

function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) {
    socket.send(JSON.stringify(message));
    return true;
  }
  say("Not connected: wait a moment and try again.");
  return false;
}

function handle(message) {
  switch (message.type) {
    case "welcome":
      try { localStorage.setItem(deviceKey, message.device); } catch (e) { /* private mode */ }
      break;
    case "state":
      state = message;
      render();
      break;
    case "notice":
      say(message.text);
      break;
    case "error":
      if (state && state.me && state.me.roll && !$("roll").hidden) {
        $("roll-error").textContent = message.text;
        $("roll-error").hidden = false;
      } else {
        say(message.text);
      }
      break;
    case "refused":
    case "stopped":
      stopped = true;
      status(message.text, true);
      break;
  }
}

function render() {
  const fight = state.fight;
  $("title").textContent = fight.title;
  $("headline").textContent = fight.headline;
  document.title = fight.headline + " · fightdesk";
  renderTimeline(fight);
  const cards = $("cards");
  cards.replaceChildren(...fight.cards.map((card) => cardNode(card, false)));
  renderMine();
}

function renderTimeline(fight) {
  $("caption").textContent = fight.caption;
  const list = $("timeline");
  const items = fight.lanes.map((lane) => {
    const item = el("li");
    const acting = lane.chips.some((chip) => chip.state === "acting");
    item.classList.toggle("acting", acting);
    item.classList.toggle("out", lane.out);
    item.append(el("span", "lane", lane.title));
    const chips = lane.chips.map((chip) => {
      const column = fight.columns[chip.column] || "";
      return [column, chip.label].filter(Boolean).join(" ");
    });
    item.append(el("span", "chips", chips.join(" · ")));
    return item;
  });
  list.replaceChildren(...items);
}

function cardNode(card, own) {
  const node = el("div", "card" + (own ? " own" : ""));
  node.dataset.fighter = card.id;
  node.classList.toggle("acting", card.acting);
  node.classList.toggle("out", card.out);
  node.append(el("div", "name", card.name + (card.acting ? " (acting)" : "")));
  const side = { pc: "PC", ally: "Ally", enemy: "Enemy" }[card.side] || card.side;
  node.append(el("div", "side", side + (card.out ? " · down" : "")));
  if (card.health_share !== null) {
    const bar = el("div", "bar");
    const fill = el("span");
    fill.style.width = Math.round(card.health_share * 100) + "%";
    bar.append(fill);
    node.append(bar);
  }
  if (card.health_text) node.append(el("div", "health", card.health_text));
  for (const condition of card.conditions) node.append(el("div", "line", condition));
  if (card.resources.length) node.append(el("div", "line", card.resources.join("  ")));
  if (own && card.dice.length) node.append(el("div", "line", card.dice.join("  ")));
  return node;
}

function renderMine() {
  const me = state.me;
  const mine = Boolean(me.fighter && me.card);
  $("mine").hidden = !mine;
  $("choose").hidden = mine;
  if (mine) {
    $("own-card").replaceChildren(cardNode(me.card, true));
  } else {
    const buttons = state.claimable.map((choice) => {
      const button = el("button", "", choice.name + (choice.claimed === "other" ? " (taken)" : ""));
      button.type = "button";
      button.dataset.fighter = choice.id;
      button.disabled = choice.claimed === "other";
      button.addEventListener("click", () => send({ type: "claim", fighter: choice.id }));
      return button;
    });
    if (!buttons.length) buttons.push(el("p", "caption", "The GM has not offered any fighter to claim."));
    $("claimable").replaceChildren(...buttons);
  }
  renderRoll(mine ? me.roll : null);
}

let shownRoll = null;

function renderRoll(roll) {
  const box = $("roll");
  box.hidden = !roll;
  if (!roll) { shownRoll = null; return; }
  if (shownRoll !== roll.id) {
    $("faces").value = "";
    $("roll-error").hidden = true;
    shownRoll = roll.id;
  }
  $("roll-title").textContent = roll.title;
  $("roll-what").textContent = "Roll " + roll.dice;
  $("roll-target").textContent = roll.target;
  $("roll-odds").replaceChildren(...roll.odds.map((o) =>
    el("li", "", o.label + ": " + o.exact + " (" + o.percent + ")")));
  $("roll-blocked").textContent = roll.blocked ? "Not yet: " + roll.blocked : "";
  $("roll-blocked").hidden = !roll.blocked;
  $("send-roll").disabled = Boolean(roll.blocked);
  $("faces-label").textContent = roll.coins
    ? (roll.count === 1 ? "Your coin, H or T" : "Your " + roll.count + " coins, H or T each (e.g. H T H)")
    : (roll.count === 1 ? "Your face" : "Your " + roll.count + " faces") + ", 1 to " + roll.sides +
      " (e.g. " + example(roll) + ")";
}

function example(roll) {
  const faces = [];
  for (let i = 0; i < Math.min(roll.count, 4); i += 1) faces.push(Math.min(roll.sides, i + 3));
  return faces.join(" ") + (roll.count > 4 ? " ..." : "");
}

// The typed faces checked against the dice asked for: a list, or a line saying what is wrong.
function parseFaces(text, roll) {
  const raw = roll.coins
    ? text.toUpperCase().replace(/[^HT]/g, (c) => (/[\s,]/.test(c) ? "" : "?")).split("")
    : text.split(/[\s,;]+/).filter(Boolean);
  if (raw.includes("?")) return "Type each coin as H or T.";
  const faces = [];
  for (const item of raw) {
    if (roll.coins) { faces.push(item); continue; }
    if (!/^\d+$/.test(item)) return "\"" + item + "\" is not a face: type whole numbers.";
    let face = Number(item);
    if (roll.sides === 100 && item === "00") face = 100;
    if (face < 1 || face > roll.sides) return face + " is not on a d" + roll.sides + " (1 to " + roll.sides + ").";
    faces.push(face);
  }
  const what = roll.coins ? "coins" : "dice";
  if (faces.length !== roll.count) return "This roll takes " + roll.count + " " + what + "; you typed " + faces.length + ".";
  return faces;
}

function sendRoll(event) {
  event.preventDefault();
  const roll = state && state.me && state.me.roll;
  if (!roll) return;
  const faces = parseFaces($("faces").value, roll);
  const error = $("roll-error");
  if (typeof faces === "string") {
    error.textContent = faces;
    error.hidden = false;
    return;
  }
  error.hidden = true;
  send({ type: "roll", roll: roll.id, faces: faces });
}

document.addEventListener("DOMContentLoaded", () => {
  $("roll-form").addEventListener("submit", sendRoll);
  $("release").addEventListener("click", () => send({ type: "release" }));
  connect();
});
