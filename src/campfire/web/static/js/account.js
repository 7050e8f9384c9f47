// The account page (/account): sign in or up (optional: guests play as before), and for a
// signed-in person sign out, change the password, set the e-mail address (where the server
// sends e-mail), block and unblock players, report a player, download their data, delete the
// account. docs/accounts.md describes it.
//
// The session is an HttpOnly cookie the scripts never see; every write it authenticates
// carries the session's CSRF token (from GET /api/account) in the X-CSRF-Token header.

import { $, notice, startPage } from "./dom.js";
import { plural, t } from "./i18n.js";
import { accountState, accountCall, guestSeats } from "./lobby-api.js";

let state = { user: null, csrf: null, mail: false };

function show(id, visible) {
  $(id).hidden = !visible;
}

function draw() {
  const signedIn = Boolean(state.user);
  const resetting = !signedIn && resetToken() !== null;
  show("cf-signin-panel", !signedIn && !resetting);
  show("cf-signup-panel", !signedIn && !resetting);
  show("cf-reset-panel", resetting);
  show("cf-me-panel", signedIn);
  show("cf-forgot", state.mail);
  show("cf-signup-email-row", state.mail);
  show("cf-email", signedIn && state.mail);
  if (signedIn) {
    $("cf-me-title").textContent = t("web.account.as", { name: state.user.name });
    $("cf-email-address").value = state.user.email || "";
    $("cf-my-profile").href = `/player/${encodeURIComponent(state.user.name)}`;
    loadBlocks();
  }
}

/** The token of a reset link (/account#reset=TOKEN), or null. */
function resetToken() {
  const found = /(?:^#|&)reset=([A-Za-z0-9_-]+)/.exec(location.hash);
  return found ? found[1] : null;
}

function refused(answer) {
  notice(t("web.error.server", { message: answer.message }), "error");
}

async function signIn(event) {
  event.preventDefault();
  const answer = await accountCall("POST", "/api/account/signin", {
    user_name: $("cf-signin-name").value.trim(),
    password: $("cf-signin-password").value,
  });
  if (!answer.ok) return refused(answer);
  state = answer.body;
  $("cf-signin-password").value = "";
  notice(t("web.account.welcome", { name: state.user.name }), "info", 4000);
  draw();
}

async function signUp(event) {
  event.preventDefault();
  const body = { user_name: $("cf-signup-name").value.trim(), password: $("cf-signup-password").value };
  if (state.mail && $("cf-signup-email").value.trim()) body.email = $("cf-signup-email").value.trim();
  if ($("cf-signup-claim").checked) body.claim = guestSeats();
  const answer = await accountCall("POST", "/api/account/signup", body);
  if (!answer.ok) return refused(answer);
  state = answer.body;
  $("cf-signup-password").value = "";
  const claimed = answer.body.claimed.length;
  const words = [t("web.account.welcome", { name: state.user.name })];
  if (claimed) words.push(plural("web.account.claimed", claimed));
  notice(words.join(" "), "info");
  draw();
}

async function signOut() {
  const answer = await accountCall("POST", "/api/account/signout", undefined, state.csrf);
  if (!answer.ok) return refused(answer);
  state = answer.body;
  notice(t("web.account.signedout"), "info", 4000);
  draw();
}

async function changePassword(event) {
  event.preventDefault();
  const answer = await accountCall(
    "POST",
    "/api/account/password",
    { old_password: $("cf-password-old").value, new_password: $("cf-password-new").value },
    state.csrf,
  );
  if (!answer.ok) return refused(answer);
  $("cf-password-old").value = "";
  $("cf-password-new").value = "";
  notice(t("web.account.changed"), "info");
}

async function saveEmail(event) {
  event.preventDefault();
  const email = $("cf-email-address").value.trim() || null;
  const answer = await accountCall("POST", "/api/account/email", { email }, state.csrf);
  if (!answer.ok) return refused(answer);
  state.user = answer.body.user;
  notice(t("web.account.email.saved"), "info", 4000);
}

async function deleteAccount(event) {
  event.preventDefault();
  const answer = await accountCall("DELETE", "/api/account", { password: $("cf-delete-password").value }, state.csrf);
  if (!answer.ok) return refused(answer);
  $("cf-delete-password").value = "";
  state = { user: null, csrf: null, mail: state.mail };
  notice(t("web.account.deleted"), "info");
  draw();
}

function drawBlocks(blocks) {
  const list = $("cf-blocks");
  list.replaceChildren();
  for (const block of blocks) {
    const item = document.createElement("li");
    item.className = "cf-block";
    const name = document.createElement("span");
    name.textContent = block.user_name;
    const button = document.createElement("button");
    button.type = "button";
    button.className = "cf-button";
    button.textContent = t("web.account.unblock");
    button.setAttribute("aria-label", t("web.account.unblock.name", { name: block.user_name }));
    button.addEventListener("click", () => unblock(block.user_name));
    item.append(name, " ", button);
    list.append(item);
  }
  show("cf-blocks-none", blocks.length === 0);
}

async function loadBlocks() {
  const answer = await accountCall("GET", "/api/account/blocks");
  if (answer.ok) drawBlocks(answer.body.blocks);
}

async function block(event) {
  event.preventDefault();
  const name = $("cf-block-name").value.trim();
  const answer = await accountCall("POST", "/api/account/blocks", { user_name: name }, state.csrf);
  if (!answer.ok) return refused(answer);
  $("cf-block-name").value = "";
  drawBlocks(answer.body.blocks);
  notice(t("web.account.blocked", { name }), "info", 4000);
}

async function unblock(name) {
  const answer = await accountCall("POST", "/api/account/unblock", { user_name: name }, state.csrf);
  if (!answer.ok) return refused(answer);
  drawBlocks(answer.body.blocks);
  notice(t("web.account.unblocked", { name }), "info", 4000);
}

async function report(event) {
  event.preventDefault();
  const answer = await accountCall(
    "POST",
    "/api/account/report",
    {
      user_name: $("cf-report-name").value.trim(),
      category: $("cf-report-category").value,
      reason: $("cf-report-reason").value.trim(),
    },
    state.csrf,
  );
  if (!answer.ok) return refused(answer);
  $("cf-report-reason").value = "";
  notice(t("web.account.reported"), "info");
}

async function forgot(event) {
  event.preventDefault();
  const answer = await accountCall("POST", "/api/account/reset", { user_name: $("cf-forgot-name").value.trim() });
  if (!answer.ok) return refused(answer);
  notice(t("web.account.forgot.sent"), "info");
}

async function reset(event) {
  event.preventDefault();
  const answer = await accountCall("POST", "/api/account/reset/confirm", {
    token: resetToken(),
    new_password: $("cf-reset-password").value,
  });
  if (!answer.ok) return refused(answer);
  history.replaceState(null, "", "/account"); // the token is spent: out of the address bar
  notice(t("web.account.reset.done"), "info");
  draw();
}

async function main() {
  await startPage();
  const answer = await accountState();
  if (answer.ok) state = answer.body;
  else notice(t("web.error.network", { message: answer.message }), "error");
  $("cf-signin").addEventListener("submit", signIn);
  $("cf-signup").addEventListener("submit", signUp);
  $("cf-signout").addEventListener("click", signOut);
  $("cf-password").addEventListener("submit", changePassword);
  $("cf-email").addEventListener("submit", saveEmail);
  $("cf-delete").addEventListener("submit", deleteAccount);
  $("cf-forgot").addEventListener("submit", forgot);
  $("cf-block").addEventListener("submit", block);
  $("cf-report").addEventListener("submit", report);
  const asked = /[?&]report=([A-Za-z0-9_.-]{1,24})/.exec(location.search); // a name's "report"
  if (asked) $("cf-report-name").value = asked[1];
  $("cf-reset").addEventListener("submit", reset);
  window.addEventListener("hashchange", draw); // a reset link opened over this very page
  draw();
  document.body.dataset.ready = "1";
}

main();
