#!/usr/bin/env node
// A gin bot in Node.js that speaks ginref's bot protocol (docs/match.md): one JSON object a
// line on standard input, one answer a line on standard output.
//
//   ginref match 'node=cmd:node examples/bot.js' random --pairs 50
//   ginref match --check 'node examples/bot.js'
//
// It plays a plain strategy from the legal moves alone: knock (or gin) whenever the table
// offers it, take the top discard only when it pairs with a card of the same rank, throw
// the highest card it may, and at the defence finish (the referee melds its best).

"use strict";
const readline = require("readline");

const RANKS = "A23456789TJQK";
const points = (card) => Math.min(RANKS.indexOf(card[0]) + 1, 10);

function choose(message) {
  const legal = message.legal;
  const view = message.view;
  const knock = legal.find((m) => m.startsWith("gin") || m.startsWith("knock"));
  if (knock) return knock;
  if (legal.includes("take") && view.pile.length > 0) {
    const top = view.pile[view.pile.length - 1];
    const pairs = view.hand.filter((c) => c[0] === top[0]).length;
    if (pairs >= 1) return "take";
  }
  if (legal.includes("draw")) return "draw";
  if (legal.includes("pass")) return "pass";
  const discards = legal.filter((m) => m.startsWith("discard "));
  if (discards.length > 0) {
    discards.sort((a, b) => points(b.slice(8)) - points(a.slice(8)) || RANKS.indexOf(b[8]) - RANKS.indexOf(a[8]));
    return discards[0];
  }
  return legal.includes("finish") ? "finish" : legal[0];
}

const say = (obj) => process.stdout.write(JSON.stringify(obj) + "\n");
const lines = readline.createInterface({ input: process.stdin });
lines.on("line", (line) => {
  if (!line.trim()) return;
  const message = JSON.parse(line);
  switch (message.type) {
    case "hello":
      say({ type: "ready", name: "node-example", options: {} });
      break;
    case "act":
      say({ id: message.id, move: choose(message) });
      break;
    case "ping":
      say({ id: message.id, type: "pong" });
      break;
    case "quit":
      process.exit(0);
  }
});
