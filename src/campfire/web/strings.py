"""The browser client's texts: message id → English template, translated by the server.

The client fetches them from ``GET /api/strings?lang=xx`` and fills the ``{placeholders}``
itself; it never shows English written in its scripts except as a fallback when the fetch
fails. The catalogs translate them by id, like a presenter's ``MESSAGES`` (``docs/i18n.md``).

>>> strings("en")["web.lobby.create"]
'Create table'
>>> strings("en")["web.players.count#other"]
'{count} players'
>>> plural_ids("web.table.cards")
['web.table.cards#one', 'web.table.cards#few', 'web.table.cards#many', 'web.table.cards#other']
"""

from __future__ import annotations

from campfire.core.present import text, translation

__all__ = ["PLURAL_CATEGORIES", "STRINGS", "plural_ids", "strings"]

#: the plural categories a counted text has a variant for (``Intl.PluralRules`` names them;
#: English uses one and other, Hungarian one and other, Czech one, few, many and other)
PLURAL_CATEGORIES = ("one", "few", "many", "other")


def plural_ids(message_id: str) -> list[str]:
    """The ids of a counted text's variants: ``<id>#one``, ``<id>#few``, ``<id>#many``, ...

    The client picks one with ``Intl.PluralRules`` of the page's language; a missing one falls
    back to ``<id>#other``.
    """
    return [f"{message_id}#{category}" for category in PLURAL_CATEGORIES]


def _plural(message_id: str, one: str, other: str) -> dict[str, str]:
    """A counted text's English variants (few and many read as other in English)."""
    return dict(zip(plural_ids(message_id), (one, other, other, other), strict=True))


#: Every text of the browser client: message id → English template.
STRINGS: dict[str, str] = {
    # ----- shared ------------------------------------------------------------------------
    "web.app.title": "Campfire",
    "web.app.tagline": "Four card games to play with friends, in the browser.",
    "web.lang.label": "Language",
    "web.error.network": "The server could not be reached: {message}",
    "web.error.server": "The server refused: {message}",
    "web.loading": "Loading…",
    # ----- lobby -------------------------------------------------------------------------
    "web.lobby.new": "New table",
    "web.lobby.game": "Game",
    "web.lobby.players": "Players",
    **_plural("web.players.count", "{count} player", "{count} players"),
    "web.lobby.nickname": "Your name",
    "web.lobby.nickname.default": "Player",
    "web.lobby.options": "Options",
    "web.lobby.seats": "Seats",
    "web.lobby.seat": "Seat {number}",
    "web.lobby.seat.you": "You",
    "web.lobby.seat.friend": "A friend (invite)",
    "web.lobby.seat.open": "Open to anyone",
    "web.lobby.friend.name": "Name of the friend in seat {number}",
    "web.lobby.friend.default": "Friend {number}",
    "web.lobby.seat.easy": "Bot: easy",
    "web.lobby.seat.medium": "Bot: medium",
    "web.lobby.seat.hard": "Bot: hard",
    "web.lobby.clock": "Clock",
    "web.lobby.clock.none": "No clock",
    "web.lobby.clock.move": "{seconds} s per move",
    "web.lobby.clock.game": "{minutes} min per game, +{increment} s a move",
    "web.lobby.clock.turn": "Turn-based: hours or days for each move",
    "web.table.clock.days": "{days} d {hours} h",
    "web.lobby.turn.time": "Time for each move",
    "web.lobby.turn.unit": "Unit",
    "web.lobby.turn.hours": "hours",
    "web.lobby.turn.days": "days",
    "web.lobby.turn.help": "from 1 hour to 14 days; come back whenever it is your turn",
    "web.lobby.turn.rule": "When the time runs out",
    "web.lobby.turn.rule.bot": "a bot plays for the player",
    "web.lobby.turn.rule.loss": "the player loses the game",
    "web.lobby.turn.rule.random": "a random move is played",
    **_plural("web.turns.badge", "Your turn: {count} table", "Your turn: {count} tables"),
    "web.turns.item": "Table {id}: {game}, until {deadline}",
    "web.lobby.realtime": "Real time: claims race the clock (claim windows timed by the server)",
    "web.lobby.realtime.people": "always at a table of two or more people",
    "web.lobby.create": "Create table",
    "web.lobby.tables": "Tables",
    "web.lobby.tables.none": "No open or running tables. Create one!",
    "web.lobby.refresh": "Refresh",
    "web.lobby.join": "Join",
    "web.lobby.watch": "Watch",
    "web.lobby.open": "Open",
    "web.lobby.status.open": "waiting for players",
    "web.lobby.status.running": "playing",
    "web.lobby.status.finished": "finished",
    "web.lobby.table": "Table {id}: {game}",
    "web.lobby.free": "free",
    "web.lobby.rules": "Rules",
    # an option and its value in words (the words come from GET /api/games; a seat is a player)
    "web.option.player": "Player {number}",
    "web.option.value": "{option}: {value}",
    "web.option.yes": "yes",
    "web.option.no": "no",
    "web.lobby.table.options": "Options: {options}",
    "web.lobby.new.jump": "Create a table",
    # ----- the waiting room --------------------------------------------------------------
    "web.wait.title": "Waiting for players",
    "web.wait.invite": "Link for anyone",
    "web.wait.invite.help": "Send this link to your friends: they open it and take a seat.",
    "web.wait.invite.help.open": "Anyone who opens this link can take an open seat, or watch. "
    "It does not give a reserved seat: a friend you reserved a seat for needs their own link "
    "above.",
    "web.wait.personal": "Personal links",
    "web.wait.personal.help": "Each friend you reserved a seat for has their own link: send "
    "each one only to that friend. Opening it takes their seat.",
    "web.wait.personal.for": "For {name} (seat {number})",
    "web.wait.bots": "Start with bots",
    "web.wait.bots.help": "Bots play the missing seats; a friend who comes later takes their "
    "seat back from the bot.",
    "web.wait.wait": "Wait",
    "web.wait.name": "Your name",
    "web.wait.name.help": "You were invited as {name}: keep this name or write yours, so that "
    "the others know you.",
    "web.wait.name.save": "That is my name",
    "web.wait.name.empty": "Write a name (1–32 characters).",
    "web.presence.here": "here",
    "web.presence.never": "not here yet",
    "web.presence.away": "away {seconds} s",
    "web.presence.away.min": "away {minutes} min",
    "web.table.waiting_for": "Waiting for {name} ({state})",
    "web.wait.copy": "Copy link",
    "web.wait.copied": "Link copied.",
    "web.wait.start": "Start the game",
    "web.wait.leave": "Leave the seat",
    "web.wait.take": "Take this seat",
    "web.wait.need": "Seats are still open: wait for people to take them, or start with bots "
    "in them.",
    # ----- the table ---------------------------------------------------------------------
    "web.table.title": "Table {id}",
    "web.table.lobby": "Lobby",
    "web.table.rules": "Rules of {game}",
    "web.table.options": "Options in force",
    "web.table.options.none": "the rules as written (no options changed)",
    "web.table.log": "Game log",
    # the button that closes the log opened as a sheet over the page (on a phone)
    "web.table.log.close": "Close",
    # the mark, in a zone's heading, of the player whose move changed it last
    "web.table.last_move": "Last move: {name}",
    # the same mark for a step the game made itself (a card turned up, a new round dealt)
    "web.table.last_move.game": "Last change: the game's own step",
    "web.table.players": "Players",
    "web.table.your_turn": "Your turn!",
    # how the games' prompts begin when they say it is your turn, as the presenters' catalogs
    # translate them (several separated by "|"): the banner then does not add "Your turn!"
    "web.table.your_turn.said": "Your turn:",
    "web.table.waiting": "Waiting for {names}",
    "web.table.spectating": "You are watching this table.",
    "web.table.you": "you",
    "web.seat.bot": "Bot {number} ({level})",
    "web.level.easy": "easy",
    "web.level.medium": "medium",
    "web.level.hard": "hard",
    "web.table.takeover": "a bot plays for them",
    "web.table.to_act": "to play",
    "web.table.moves": "Moves",
    "web.table.choose": "Choose: {label}",
    "web.table.cancel": "Cancel this step",
    "web.table.selected": "Selected: {label}. Now choose where it goes.",
    "web.table.connecting": "Connecting…",
    "web.table.reconnecting": "Connection lost; reconnecting…",
    "web.table.connected": "Connected",
    "web.table.latency": "Latency {ms} ms",
    "web.table.over": "Game over",
    "web.table.result": "Final scores",
    "web.table.winner": "winner",
    "web.table.rank": "#{rank}",
    "web.table.rematch": "Play again (same seats)",
    "web.rematch.title": "Rematch",
    "web.rematch.proposes": "{name} proposes a rematch",
    "web.rematch.you_propose": "You proposed a rematch",
    "web.rematch.accept": "Accept",
    "web.rematch.decline": "Decline",
    "web.rematch.withdraw": "Withdraw the proposal",
    "web.rematch.accepted": "Accepted so far: {names}",
    "web.rematch.waiting": "Waiting for: {names}",
    "web.rematch.you_accepted": "You accepted; the game starts when everyone has.",
    "web.rematch.expires": "The proposal expires in {seconds} s.",
    "web.rematch.declined": "{name} declined the rematch.",
    "web.rematch.withdrawn": "{name} withdrew the rematch proposal.",
    "web.rematch.left": "{name} left the table: no rematch.",
    "web.rematch.expired": "The rematch proposal expired: not everyone accepted in time.",
    "web.table.clock": "{time} left",
    "web.table.error": "Not accepted: {message}",
    "web.table.closed": "The server's operator closed this table: {message}",
    "web.table.empty": "empty",
    "web.table.none": "none",
    "web.table.face_down": "face down",
    **_plural("web.table.cards", "{count} card", "{count} cards"),
    "web.table.count": "{label}: {count}",
    "web.table.no_table": "There is no such table.",
    "web.table.bad_invite": "This invitation link is not valid for this table: it may be "
    "incomplete, or the seat was given up. You are watching as a spectator.",
    "web.table.bad_seat": "The seat this browser kept for this table is no longer valid "
    "(it was given up, or the table is not the one it was). You are watching as a spectator.",
    # ----- the table's chat (js/chat.js) ------------------------------------------------
    "web.chat.title": "Chat",
    "web.chat.say": "Chat message",
    "web.chat.send": "Send",
    "web.chat.empty": "No messages yet.",
    "web.chat.note.player": "Players' chat. Spectators' messages are not shown to the players.",
    "web.chat.note.spectator": (
        "You read the players' chat and the spectators'; you write to the spectators."
    ),
    "web.chat.placeholder.player": "Say something to the players…",
    "web.chat.placeholder.spectator": "Say something to the other spectators…",
    "web.chat.spectator": "Spectator",
    "web.chat.spectators": "spectators",
    "web.chat.channel.spectators": "spectators",
    "web.chat.mute": "Mute {name}",
    "web.chat.mute.short": "mute",
    "web.chat.unmute": "Unmute {name}",
    "web.chat.muted": "Muted here:",
    **_plural("web.chat.unread", "{count} new", "{count} new"),
    # ----- taking back a move (js/undo.js) ----------------------------------------------
    "web.lobby.undo": "Undo: a player may take back a move if the others accept",
    "web.lobby.undo.help": "never in real time, nor after a move that showed a card",
    "web.table.undo": "A move may be taken back if the others accept",
    "web.undo.button": "Take back my move",
    "web.undo.asked": "{name} asks to take back their move: {move}",
    "web.undo.asked.last": "{name} asks to take back their last move",
    "web.undo.accept": "Accept",
    "web.undo.decline": "Decline",
    "web.undo.waiting": "Waiting for {names} to accept…",
    "web.undo.accepted": "{name} took back a move",
    "web.undo.declined": "{name} declined: the move stays",
    "web.undo.expired": "Nobody answered in time: the move stays",
    "web.undo.cancelled": "A move was played: the request to take one back is over",
    # ----- hints (js/hints.js) and post-game reviews (js/review.js) ----------------------
    "web.lobby.hints": "Hints: a player may ask what the hard level would play",
    "web.lobby.hints.help": "for casual games: the log says who used a hint; never in real time",
    "web.table.hints": "Hints are allowed: the log says who used one",
    "web.table.rated": "Rated: the result changes the players' ratings (no hints, no undo)",
    "web.hint.button": "Hint",
    "web.hint.help": "What would the hard level play? (key ?)",
    "web.hint.thinking": "Thinking about a hint…",
    "web.hint.answer": "Hint: {move}. The hard level's search gives you about {win} % to win "
    "after it.",
    "web.hint.answer.plain": "Hint: {move}. (The hard level plays it by its rule of thumb "
    "here: there is nothing to search.)",
    "web.hint.used": "{name} used a hint",
    "web.review.open": "Review the game",
    "web.review.heading": "Post-game review",
    "web.review.start": "Review this game",
    "web.review.help": "The hard level's search assesses every decision from what that player "
    "knew: the estimated chance to win after the move played and after the best move. An "
    "inaccuracy loses at least {inaccuracy}, a blunder at least {blunder} of the search's "
    "estimate.",
    "web.review.queued": "Waiting for a free worker…",
    "web.review.progress": "Reviewing: {done} of {total} moves",
    "web.review.failed": "The review failed: {message}",
    "web.review.graph": "Estimated chance to win over the game",
    "web.review.summary": "{name}: inaccuracies {inaccuracies}, blunders {blunders} "
    "(in {decisions} decisions)",
    "web.review.inaccuracy": "inaccuracy",
    "web.review.blunder": "blunder",
    "web.review.move": "Move {number}, {name}: {played} ({win} %)",
    "web.review.best": "best: {best} ({win} %)",
    "web.review.same": "the search's choice too",
    # ----- a bad link (campfire.server.pages) --------------------------------------------
    "web.missing.lobby": "Back to the lobby",
    "web.missing.replays": "Open the replay viewer",
    "web.missing.watch": "Go to table {table}",
    "web.missing.table": "There is no table “{table}”",
    "web.missing.table.help": "The link may be mistyped or cut short, or the table no longer "
    "exists. The lobby lists the tables waiting for players and those being played.",
    "web.missing.page": "There is no page at this address",
    "web.missing.page.help": "The link may be mistyped or out of date.",
    "web.missing.rules": "Campfire has no game called “{name}”",
    "web.missing.rules.help": "These are the games whose rules it has:",
    "web.missing.game": "Table {table} has no finished game {number}",
    "web.missing.game.help": "A game can be replayed once it has ended. The replay viewer "
    "lists every finished game.",
    "web.missing.playing": "Game {number} at table {table} is still being played",
    "web.missing.playing.help": "Its replay opens once it has ended; until then you can watch "
    "it at the table.",
    "web.missing.replay": "This replay link is not valid",
    "web.missing.replay.help": "A replay link names a table, one of its finished games and a "
    "point of view (a seat of the game, or spectator), as the replay viewer writes it. This one "
    "is incomplete or has a mistake; choose the game in the replay viewer instead.",
    # ----- real-time claims --------------------------------------------------------------
    "web.rt.window": "Claim window: {seconds} s left",
    "web.rt.keys": "Keys: press the number of your answer (1–{count})",
    "web.rt.claims": "Claims in this window",
    "web.rt.penalty": "penalty",
    "web.rt.penalised": "This answer costs a penalty now",
    # ----- learn to play (the tutorials) --------------------------------------------------
    "web.learn.title": "Learn to play",
    "web.learn.intro": "Short lessons, each on a table set up for it: one rule at a time, and "
    "one move asked of you at a time.",
    "web.learn.lesson": "Lesson {number} of {count}: {title}",
    "web.learn.continue": "Continue",
    "web.learn.next": "Next lesson",
    "web.learn.lessons": "All lessons",
    "web.learn.saw": "You saw: {cards}",
    "web.learn.finished": "Lesson finished.",
    "web.learn.finished.last": "You have finished the tutorial of {game}. The rules tell "
    "everything else, and the options.",
    "web.learn.first_game": "Play a first game against the easy bot",
    "web.learn.rules": "Rules",
    "web.learn.none": "No game has lessons yet.",
    # ----- replays -----------------------------------------------------------------------
    "web.replay.title": "Replay",
    "web.replay.heading": "Replay of a finished game",
    "web.replay.open": "Watch the replay",
    "web.replay.games": "Finished games",
    "web.replay.games.none": "No finished games yet",
    "web.replay.choose": "Choose a game",
    "web.replay.game": "Table {id}, game {number}: {game}",
    "web.replay.upload": "Open a record file",
    "web.replay.upload.help": "A game record (.json) saved by Campfire: from a table, "
    "campfire play or campfire sim.",
    "web.replay.seat": "Point of view",
    "web.replay.spectator": "Spectator (public information only)",
    "web.replay.start": "To the start",
    "web.replay.back": "One step back",
    "web.replay.forward": "One step forward",
    "web.replay.end": "To the end",
    "web.replay.play": "Play",
    "web.replay.pause": "Pause",
    "web.replay.play.help": "Play the moves one after another (P plays and pauses)",
    "web.replay.slider": "Step",
    "web.replay.step": "Step {step} of {total}",
    "web.replay.by": "Move by {name}",
    "web.replay.setup": "The game as dealt, before the first move",
    "web.replay.keys": "Keys: ← and → step back and forward, Home and End go to the start "
    "and the end.",
    # ----- accounts (docs/accounts.md) ----------------------------------------------------
    "web.account.title": "Account",
    "web.account.offer": "Sign in",
    "web.account.as": "Signed in as {name}",
    "web.account.mine": "Your account",
    "web.account.signin": "Sign in",
    "web.account.signup": "Sign up",
    "web.account.optional": "An account is optional: guests play as before, and no e-mail "
    "address is needed.",
    "web.account.name": "User name",
    "web.account.name.help": "3–24 characters: letters a–z, digits and _ . -",
    "web.account.password": "Password",
    "web.account.password.help": "At least 8 characters",
    "web.account.email": "E-mail address (optional: for a forgotten password and “your turn” "
    "notices of turn-based tables)",
    "web.account.claim": "Make the games this browser plays mine",
    "web.account.welcome": "Welcome, {name}!",
    **_plural(
        "web.account.claimed",
        "{count} game of this browser is yours now.",
        "{count} games of this browser are yours now.",
    ),
    "web.account.signout": "Sign out",
    "web.account.signedout": "You are signed out.",
    "web.account.change": "Change the password",
    "web.account.current": "Current password",
    "web.account.new": "New password",
    "web.account.changed": "The password was changed; your other browsers were signed out.",
    "web.account.email.title": "E-mail",
    "web.account.email.save": "Save the address",
    "web.account.email.saved": "The address was saved.",
    "web.account.data": "Your data",
    "web.account.export": "Download everything stored about me (JSON)",
    "web.account.delete.title": "Delete the account",
    "web.account.delete.help": "Your games stay, shown as “deleted player”. This cannot be undone.",
    "web.account.delete": "Delete my account",
    "web.account.deleted": "Your account was deleted.",
    "web.account.forgot": "Forgot your password?",
    "web.account.forgot.send": "E-mail me a reset link",
    "web.account.forgot.sent": "If this account has an e-mail address, a link is on its way.",
    "web.account.reset": "Choose a new password",
    "web.account.reset.save": "Save the new password",
    "web.account.reset.done": "The password was changed. Sign in with it.",
    # ----- ratings, players' pages, my games (docs/accounts.md, "Ratings") -----------------
    "web.nav.games": "My games",
    "web.nav.profile": "My profile",
    "web.nav.leaderboards": "Leaderboards",
    "web.lobby.rated": "Rated",
    "web.lobby.rated.help": "The game changes the players' ratings: signed-in players only, "
    "no hints and no undo.",
    "web.ratings.title": "{game}: leaderboard",
    "web.ratings.all": "Every player count",
    "web.ratings.place": "Place",
    "web.ratings.player": "Player",
    "web.ratings.rating": "Rating",
    "web.ratings.games": "Games",
    "web.ratings.bot": "Bot ({level})",
    "web.ratings.value": "Rating {rating}",
    "web.ratings.provisional": "A rating marked ? is provisional: fewer than {count} rated games.",
    "web.ratings.none": "No rated games yet.",
    **_plural("web.ratings.wins", "{count} win", "{count} wins"),
    "web.player.title": "Player {name}",
    "web.player.ratings": "Ratings",
    "web.player.games": "Games",
    "web.player.graph": "{game}: the rating after each rated game",
    **_plural("web.games.count", "{count} game", "{count} games"),
    "web.games.running": "Being played",
    "web.games.finished": "Finished",
    "web.games.none": "No games yet.",
    "web.games.signin": "Sign in to see your games.",
    "web.games.table": "Table {id}, game {number}",
    "web.games.with": "with {names}",
    "web.games.won": "Won",
    "web.games.place": "Place {place} of {players}",
    "web.games.rated": "rated",
    "web.games.change": "rating {change}",
    "web.games.replay": "Replay",
    "web.games.open": "Open the table",
    # ----- quick match (docs/web.md, "Play now") --------------------------------------------
    "web.quick.title": "Play now",
    "web.quick.help": "You are seated with the next people who want the same game; if nobody "
    "comes in time, bots fill the empty seats.",
    "web.quick.game": "What to play",
    "web.quick.count": "How many of you",
    "web.quick.wait": "Bots fill the empty seats after",
    "web.quick.level": "Bots' level",
    "web.quick.play": "Play now",
    "web.quick.seconds": "{seconds} seconds",
    **_plural("web.quick.minutes", "{count} minute", "{count} minutes"),
    "web.quick.for": "{game}, {players}: looking for players",
    **_plural(
        "web.quick.countdown",
        "Bots fill the empty seats in {count} second.",
        "Bots fill the empty seats in {count} seconds.",
    ),
    "web.quick.waiting": "Waiting",
    "web.quick.stop": "Stop waiting",
    # ----- moderation (docs/accounts.md, "Moderation") -------------------------------------
    "web.account.blocks": "Blocked players",
    "web.account.blocks.help": "You never share a table with a player you block, and their "
    "chat lines do not reach you.",
    "web.account.blocks.none": "You block nobody.",
    "web.account.block": "Block",
    "web.account.blocked": "{name} is blocked.",
    "web.account.unblock": "Unblock",
    "web.account.unblock.name": "Unblock {name}",
    "web.account.unblocked": "{name} is no longer blocked.",
    "web.account.report": "Report a player",
    "web.account.report.help": "The server's operator reads every report. Reports are limited "
    "to a few an hour.",
    "web.account.report.whom": "Player (user name)",
    "web.account.report.category": "What happened",
    "web.account.report.reason": "Tell the operator what happened",
    "web.account.report.send": "Send the report",
    "web.account.reported": "Thank you: the report was sent to the operator.",
    "web.moderate.title": "Players",
    "web.moderate.help": "Report a player to the server's operator, or block them: you will "
    "not share a table again, and their chat lines no longer reach you.",
    "web.moderate.report": "Report",
    "web.moderate.report.name": "Report {name}",
    "web.moderate.block.name": "Block {name}",
    "web.moderate.blocked": "{name} is blocked: you will not share a table again.",
    "web.report.abuse": "Abuse or insults",
    "web.report.cheating": "Cheating",
    "web.report.spam": "Spam",
    "web.report.name": "An offensive name",
    "web.report.other": "Something else",
}


def strings(language: str) -> dict[str, str]:
    """Every text of :data:`STRINGS` in ``language``, placeholders left for the client to fill.

    Each text goes through :func:`campfire.core.present.text` with the language's translator
    in force, as a presenter's texts do, so one catalog entry (context = the id) translates it.
    """
    from campfire.i18n import placeholders, translator

    out: dict[str, str] = {}
    with translation(translator(language).text):
        for message_id, template in STRINGS.items():
            keep = {p.partition(":")[0]: "{" + p + "}" for p in placeholders(template)}
            out[message_id] = text(message_id, template, **keep)
    return out
