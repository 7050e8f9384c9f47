// The table socket (docs/protocol.md, version 3): snapshot, then one delta per step; actions
// by notation with the sequence number they answer; reconnection with since=<last seq>, so
// the steps missed arrive in the next snapshot; ping/pong measures the round trip. The client
// asks for display patches (patch=1): a delta then carries the changes to the display model
// held (applyPatch), not the whole model.

// what a delta changes in the state (a snapshot sets these and the table's own fields)
const STEP_FIELDS = ["seq", "view", "display", "legal", "outcome", "clocks"];
/** The id of a log line that says a seat used a hint (docs/protocol.md, "Hints"). */
export const HINT_LINE = "web.hint.used";
const pick = (frame, fields) => Object.fromEntries(fields.map((key) => [key, frame[key]]));

/**
 * The display model ``model`` with a delta's ``patch`` applied: ``[path, value]`` pairs in
 * order, each setting the thing at ``path`` (object keys and array indices) to ``value``; an
 * empty path replaces the model. ``model`` itself is left as it was (every object or array on
 * a path is copied before it changes; the rest is shared). Throws if a path leads nowhere.
 */
export function applyPatch(model, patch) {
  const copied = new Set();
  const fresh = (value) => {
    if (value === null || typeof value !== "object") throw new Error("the patch does not fit");
    if (copied.has(value)) return value;
    const made = Array.isArray(value) ? value.slice() : { ...value };
    copied.add(made);
    return made;
  };
  for (const [path, value] of patch) {
    if (path.length === 0) {
      model = value;
      continue;
    }
    model = fresh(model);
    let node = model;
    for (const key of path.slice(0, -1)) {
      if (!(key in node)) throw new Error("the patch does not fit");
      node = node[key] = fresh(node[key]);
    }
    if (!(path[path.length - 1] in node)) throw new Error("the patch does not fit");
    node[path[path.length - 1]] = value;
  }
  return model;
}

export class TableClient {
  /**
   * @param {number} tableId
   * @param {object} opts {token, lang, onState(state, frame), onError(frame), onClosed(frame), onStatus(text),
   *   onLatency(ms), onChat(frame)}
   */
  constructor(tableId, opts = {}) {
    this.tableId = tableId;
    this.opts = opts;
    this.ws = null;
    this.seq = null; // the last sequence number seen (null: none yet)
    this.gameNumber = null;
    this.state = null;
    this.log = [];
    this.closed = false;
    this.retry = 0;
    this.pingTimer = null;
    this.pingSent = null;
    this.latency = null;
    this.frames = 0;
    this.resyncing = false; // a patch did not fit the model held: deltas wait for a snapshot
    // ``hold``: the socket opens at once, but its frames wait for :meth:`release` (the page
    // asks for its table's facts meanwhile, in parallel instead of before the socket)
    this.held = opts.hold ? [] : null;
  }

  /** Read the frames held since the socket opened (``hold``), then each as it comes. */
  release() {
    const held = this.held || [];
    this.held = null;
    for (const data of held) this.receive(data);
  }

  url() {
    const proto = location.protocol === "https:" ? "wss" : "ws";
    const params = new URLSearchParams();
    if (this.opts.token) params.set("token", this.opts.token);
    params.set("since", String(this.seq ?? 0));
    if (this.opts.lang) params.set("lang", this.opts.lang);
    params.set("patch", "1");
    params.set("presence", "1"); // presence frames: who is connected, as the server measures it
    return `${proto}://${location.host}/ws/tables/${this.tableId}?${params}`;
  }

  connect() {
    this.closed = false;
    const ws = new WebSocket(this.url());
    this.ws = ws;
    this.status("connecting");
    ws.addEventListener("open", () => {
      this.retry = 0;
      this.status("connected");
      this.ping();
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => this.ping(), 2000);
    });
    ws.addEventListener("message", (event) => {
      if (this.held) this.held.push(event.data);
      else this.receive(event.data);
    });
    ws.addEventListener("close", (event) => {
      clearInterval(this.pingTimer);
      if (this.ws !== ws) return;
      this.ws = null;
      // refused for good (4400 an address not allowed, 4401 no such seat, 4404 no such table)
      if (this.closed || event.code === 4400 || event.code === 4401 || event.code === 4404) {
        this.status(event.code === 4404 ? "gone" : "closed");
        return;
      }
      this.status("reconnecting");
      const wait = Math.min(5000, 250 * 2 ** this.retry++);
      setTimeout(() => {
        if (!this.closed) this.connect();
      }, wait);
    });
  }

  close() {
    this.closed = true;
    clearInterval(this.pingTimer);
    if (this.ws) this.ws.close();
  }

  status(text) {
    if (this.opts.onStatus) this.opts.onStatus(text);
  }

  send(message) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(message));
    return true;
  }

  ping() {
    if (this.send({ type: "ping" })) this.pingSent = performance.now();
  }

  /** Ask to take back this seat's last move (docs/protocol.md "Undo"). */
  undo() {
    return this.send({ type: "undo", seq: this.seq ?? 0 });
  }

  /** Ask what the hard level would play for this seat now (docs/protocol.md "Hints"). */
  hint() {
    return this.send({ type: "hint", seq: this.seq ?? 0 });
  }

  /** Accept or decline the open request ``seq`` to take back a move. */
  answerUndo(seq, accept) {
    return this.send({ type: "undo_answer", seq, accept });
  }

  /** Play ``notation`` for this seat (answering the last sequence number seen). */
  act(notation) {
    return this.send({ type: "action", seq: this.seq ?? 0, action: notation });
  }

  receive(data) {
    let frame;
    try {
      frame = JSON.parse(data);
    } catch (_) {
      return;
    }
    this.frames++;
    const received = performance.now();
    if (frame.type === "pong") {
      if (this.pingSent !== null) {
        this.latency = Math.round(received - this.pingSent);
        this.pingSent = null;
        if (this.opts.onLatency) this.opts.onLatency(this.latency);
      }
      return;
    }
    if (frame.type === "chat") {
      if (this.opts.onChat) this.opts.onChat(frame); // the table's chat (chat.js)
      return;
    }
    if (frame.type === "closed") {
      // the operator closed the table (campfire admin close): its snapshot came just before
      if (this.opts.onClosed) this.opts.onClosed(frame);
      return;
    }
    if (frame.type === "error") {
      if (frame.code === "stale") this.send({ type: "sync", since: this.seq ?? 0 });
      if (this.opts.onError) this.opts.onError(frame);
      return;
    }
    if (frame.type === "undo") {
      // a move taken back: its steps leave the log (the snapshot before this frame has the board)
      if (frame.status === "accepted") this.log = this.log.filter((m) => !(m.step >= frame.seq));
      if (this.opts.onUndo) this.opts.onUndo(frame);
      return;
    }
    if (frame.type === "hint" || frame.type === "hint_used") {
      // a hint for this seat, or the news that a seat used one (a line of the log)
      if (this.opts.onHint) this.opts.onHint(frame);
      return;
    }
    if (frame.type === "rematch") {
      // a rematch proposal made, answered or cancelled (docs/protocol.md, "Rematch")
      if (this.state) this.state.rematch = frame.state === "proposed" ? frame : null;
      if (this.opts.onRematch) this.opts.onRematch(frame, received);
      return;
    }
    if (frame.type === "presence") {
      // who is connected now: each seat's ``presence`` as a snapshot carries it
      const seats = (this.state && this.state.seats) || [];
      frame.seats.forEach((p, i) => {
        if (seats[i]) seats[i].presence = p;
      });
      if (this.opts.onPresence) this.opts.onPresence(frame, received);
      return;
    }
    let steps = [];
    let base = this.seq ?? 0; // a snapshot's hints from here on replace the log's (placeHints)
    if (frame.type === "snapshot") {
      this.resyncing = false;
      if (this.gameNumber !== null && frame.game_number !== this.gameNumber) {
        this.log = [];
        base = 0;
      }
      this.gameNumber = frame.game_number;
      steps = frame.missed || [];
      this.state = pick(frame, ["table", "game", "status", "seat", "seats", "game_number", "rematch", ...STEP_FIELDS]);
      this.seq = frame.seq;
    } else if (frame.type === "delta") {
      if (!this.state || frame.game_number !== this.gameNumber) {
        this.send({ type: "sync", since: 0 });
        return;
      }
      if (this.resyncing) return; // a patch did not fit: waiting for a whole model
      const changed = pick(frame, STEP_FIELDS);
      if ("patch" in frame) {
        try {
          changed.display = applyPatch(this.state.display, frame.patch);
        } catch (_) {
          this.resyncing = true;
          this.send({ type: "sync", since: this.seq ?? 0 }); // a snapshot: a whole model
          return;
        }
      }
      steps = [frame.step];
      Object.assign(this.state, changed, {
        status: frame.outcome ? "finished" : this.state.status,
      });
      this.seq = frame.seq;
    } else {
      return;
    }
    for (const step of steps) for (const m of step.messages) this.log.push({ ...m, step: step.seq });
    if (frame.type === "snapshot") this.placeHints(frame.hints || [], base);
    if (this.opts.onState) this.opts.onState(this.state, frame, steps, received);
  }

  /**
   * A snapshot's hints (``{seq, seat}``, the game's so far): their log lines from ``base`` on
   * are written again, each after the steps up to the position it was asked at (a reloaded page
   * shows them too). A line's ``text`` is the page's to write (``null`` here: it names a seat).
   */
  placeHints(hints, base) {
    const log = this.log.filter((m) => !(m.id === HINT_LINE && m.step >= base));
    for (const h of hints) {
      if (h.seq < base) continue;
      let at = log.length;
      while (at > 0 && log[at - 1].step > h.seq) at--;
      log.splice(at, 0, { id: HINT_LINE, seat: h.seat, step: h.seq, text: null });
    }
    this.log = log;
  }
}
