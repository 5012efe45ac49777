// The host side of the MCP Apps postMessage bridge (SEP-1865). Each
// iframe[data-app-frame] runs an app's HTML on the apps origin, sandboxed
// without allow-same-origin, so its messages arrive from the origin "null".
// A message is accepted only from such a frame's own window; the app's
// ui/* requests are answered here, its tools/call and resources/read are
// posted to the dashboard's bridge endpoint (with the CSRF token), which
// sends them through the recorded session, and the answer goes back to the
// app. Nothing else of the dashboard is reachable from the app.
(function () {
  "use strict";

  var PROTOCOL = "2026-01-26";
  var MAX_HEIGHT = 1600;
  var MODES = ["inline", "fullscreen"];
  var bridges = new Map(); // the frame's window -> its bridge

  // pageTheme is the dashboard's theme as the page shows it (data-theme on
  // the root element), "light" or "dark".
  function pageTheme() {
    return document.documentElement.getAttribute("data-theme") === "dark" ? "dark" : "light";
  }

  function parse(el, name) {
    try { return JSON.parse(el.getAttribute(name) || "null"); } catch (e) { return null; }
  }

  function csrfToken() {
    try { return JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRF-Token"] || ""; } catch (e) { return ""; }
  }

  function Bridge(frame) {
    this.frame = frame;
    this.notes = frame.parentNode.querySelector("[data-app-notes]");
    this.token = frame.getAttribute("data-app-token");
    this.endpoint = frame.getAttribute("data-app-bridge");
    this.tool = parse(frame, "data-app-tool");
    this.input = parse(frame, "data-app-input") || {};
    this.result = parse(frame, "data-app-result");
    this.csp = parse(frame, "data-app-csp") || {};
    this.initialized = false;
    this.mode = "inline";
  }

  // setMode shows the app inline in its card or over the whole window,
  // and tells the app (ui/notifications/host-context-changed).
  Bridge.prototype.setMode = function (mode) {
    if (MODES.indexOf(mode) < 0 || mode === this.mode) return this.mode;
    this.mode = mode;
    var section = this.frame.closest("[data-app-section]");
    var full = mode === "fullscreen";
    if (section) {
      section.classList.toggle("fullscreen", full);
      var button = section.querySelector("[data-app-fullscreen]");
      if (button) {
        button.setAttribute("aria-pressed", String(full));
        button.textContent = full ? "Exit full screen" : "Full screen";
      }
    }
    document.documentElement.classList.toggle("app-fullscreen", full);
    if (this.initialized) {
      this.post({ method: "ui/notifications/host-context-changed", params: { displayMode: mode } });
    }
    return mode;
  };

  Bridge.prototype.post = function (msg) {
    if (!this.frame.isConnected || !this.frame.contentWindow) return;
    msg.jsonrpc = "2.0";
    // The app's origin is opaque ("null"), which no target origin names.
    this.frame.contentWindow.postMessage(msg, "*");
  };

  // note shows what the app asked the host to show, as text.
  Bridge.prototype.note = function (kind, text, href) {
    if (!this.notes) return;
    var li = document.createElement("li");
    li.className = "app-note " + kind;
    li.setAttribute("data-testid", "app-note");
    var label = document.createElement("strong");
    label.textContent = kind + ": ";
    li.appendChild(label);
    if (href) {
      var a = document.createElement("a");
      a.href = href;
      a.textContent = href;
      a.rel = "noopener noreferrer";
      a.target = "_blank";
      li.appendChild(a);
    } else {
      li.appendChild(document.createTextNode(text));
    }
    this.notes.appendChild(li);
  };

  Bridge.prototype.hostContext = function () {
    return {
      toolInfo: { tool: this.tool },
      theme: pageTheme(),
      displayMode: this.mode,
      availableDisplayModes: MODES,
      platform: "web",
      locale: navigator.language,
      timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
      containerDimensions: { maxHeight: MAX_HEIGHT },
    };
  };

  // answer computes the result of one of the app's requests: a promise of
  // {result} or {error}.
  Bridge.prototype.answer = function (method, params) {
    var self = this;
    params = params || {};
    switch (method) {
      case "ui/initialize":
        return Promise.resolve({ result: {
          protocolVersion: PROTOCOL,
          hostInfo: { name: "mcp-playground", version: "1" },
          hostCapabilities: {
            openLinks: {}, serverTools: {}, serverResources: {}, logging: {},
            sandbox: { csp: self.csp },
          },
          hostContext: self.hostContext(),
        } });
      case "ping":
        return Promise.resolve({ result: {} });
      case "tools/call":
      case "resources/read":
        return self.forward(method, params);
      case "ui/open-link":
        if (!/^https?:\/\//i.test(String(params.url || ""))) {
          return Promise.resolve({ error: { code: -32602, message: "Only http and https links can be opened." } });
        }
        // A link the person follows, rather than a window the app opens.
        self.note("link", "", String(params.url));
        return Promise.resolve({ result: {} });
      case "ui/message":
        self.note("message", (params.content || []).map(function (c) { return c.type === "text" ? c.text : "[" + c.type + "]"; }).join(" "));
        return Promise.resolve({ result: {} });
      case "ui/update-model-context":
        return Promise.resolve({ result: {} });
      case "ui/request-display-mode":
        return Promise.resolve({ result: { mode: self.setMode(String(params.mode || "")) } });
      default:
        return Promise.resolve({ error: { code: -32601, message: "The playground does not handle " + method + " from apps." } });
    }
  };

  // forward posts a request to the dashboard's bridge endpoint; a refusal
  // or a JSON-RPC error is noted under the frame as well as answered.
  Bridge.prototype.forward = function (method, params) {
    var self = this;
    return fetch(this.endpoint, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": csrfToken() },
      body: JSON.stringify({ app: this.token, method: method, params: params }),
    }).then(function (resp) {
      return resp.json().catch(function () {
        return { error: { code: -32603, message: "The dashboard answered " + resp.status + "." } };
      });
    }, function (err) {
      return { error: { code: -32603, message: "The dashboard could not be reached: " + err.message } };
    }).then(function (body) {
      if (body && body.error) {
        // Shown here too: the app may not show its failures.
        self.note("refused", method + ": " + (body.error.message || "error " + body.error.code));
        return { error: body.error };
      }
      return { result: (body && body.result) || {} };
    });
  };

  Bridge.prototype.notified = function (method, params) {
    params = params || {};
    switch (method) {
      case "ui/notifications/initialized":
        if (this.initialized) return;
        this.initialized = true;
        this.post({ method: "ui/notifications/tool-input", params: { arguments: this.input } });
        if (this.result) this.post({ method: "ui/notifications/tool-result", params: this.result });
        return;
      case "ui/notifications/size-changed":
        var h = Number(params.height);
        if (h > 0) this.frame.style.height = Math.min(Math.ceil(h), MAX_HEIGHT) + "px";
        return;
      case "notifications/message":
        var data = params.data;
        this.note("log " + (params.level || "info"), typeof data === "string" ? data : JSON.stringify(data));
        return;
    }
  };

  Bridge.prototype.receive = function (msg) {
    var self = this;
    if (!msg || msg.jsonrpc !== "2.0" || typeof msg.method !== "string") return; // replies: the host sends no requests
    if (msg.id === undefined || msg.id === null) {
      self.notified(msg.method, msg.params);
      return;
    }
    self.answer(msg.method, msg.params).then(function (a) {
      var reply = { id: msg.id };
      if (a.error) reply.error = a.error; else reply.result = a.result;
      self.post(reply);
    });
  };

  window.addEventListener("message", function (e) {
    var bridge = bridges.get(e.source);
    // A sandboxed app's origin is opaque; anything else is not the app.
    if (!bridge || e.origin !== "null") return;
    if (!bridge.frame.isConnected) {
      bridges.delete(e.source);
      return;
    }
    bridge.receive(e.data);
  });

  function bind(root) {
    bridges.forEach(function (b, win) { // frames that htmx swapped out
      if (!b.frame.isConnected) bridges.delete(win);
    });
    root.querySelectorAll("iframe[data-app-frame]").forEach(function (frame) {
      if (frame.dataset.appBound) return;
      frame.dataset.appBound = "1";
      var bridge = new Bridge(frame);
      var register = function () {
        if (frame.contentWindow) bridges.set(frame.contentWindow, bridge);
      };
      register();
      frame.addEventListener("load", register);
    });
  }

  function bridgeOf(section) {
    var frame = section && section.querySelector("iframe[data-app-frame]");
    var found = null;
    bridges.forEach(function (b) { if (b.frame === frame) found = b; });
    return found;
  }

  document.addEventListener("click", function (e) {
    var button = e.target.closest && e.target.closest("[data-app-fullscreen]");
    var bridge = button && bridgeOf(button.closest("[data-app-section]"));
    if (bridge) bridge.setMode(bridge.mode === "fullscreen" ? "inline" : "fullscreen");
  });

  // Esc gives the window back to the dashboard.
  document.addEventListener("keydown", function (e) {
    if (e.key !== "Escape") return;
    bridges.forEach(function (b) { if (b.mode === "fullscreen") b.setMode("inline"); });
  });

  // A change of the dashboard's theme reaches every app.
  document.addEventListener("playground:theme", function () {
    bridges.forEach(function (b) {
      if (b.initialized) b.post({ method: "ui/notifications/host-context-changed", params: { theme: pageTheme() } });
    });
  });

  document.addEventListener("htmx:load", function (e) { bind(e.target); });
  bind(document);
})();
