// The dashboard's own script. The Content-Security-Policy allows no inline
// script and no event handler attributes, so every behaviour lives here.
(function () {
  "use strict";
  // A form with data-confirm asks the user before it is sent.
  document.addEventListener("submit", function (e) {
    var message = e.target.getAttribute("data-confirm");
    if (message && !window.confirm(message)) e.preventDefault();
  });

  // Traffic panel: opens at its newest frame and keeps the newest frame in
  // view while the user is at the bottom of the panel (older frames load at
  // its top); reports a lost live connection.
  function stickToBottom(panel) {
    var list = panel.querySelector("[data-frames]");
    if (!list) return;
    list.scrollTop = list.scrollHeight;
    var atBottom = true;
    var pause = panel.querySelector("[data-pause]");
    var paused = false, missed = 0;
    list.addEventListener("scroll", function () {
      atBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 40;
    });
    new MutationObserver(function (records) {
      if (paused) {
        records.forEach(function (r) {
          // An entry counts once: a response that joins its request's entry does not.
          r.addedNodes.forEach(function (n) { if (n.nodeType === 1 && n.matches("[data-testid=exchange], [data-testid=frame]:not([data-answers])")) missed++; });
        });
        pause.textContent = "Resume (" + missed + " new)";
        return;
      }
      if (atBottom) list.scrollTop = list.scrollHeight;
    }).observe(list, { childList: true });
    // Pause stops following new frames, which still arrive below; Resume
    // jumps to the newest.
    if (pause) pause.addEventListener("click", function () {
      paused = !paused;
      missed = 0;
      pause.textContent = paused ? "Resume (0 new)" : "Pause";
      pause.classList.toggle("on", paused);
      if (!paused) list.scrollTop = list.scrollHeight;
    });
  }
  document.addEventListener("htmx:wsOpen", function (e) {
    var panel = e.detail.elt.closest("[data-live-panel]");
    var status = panel && panel.querySelector("[data-ws-status]");
    if (status) { status.textContent = "live"; status.className = "ws-status ok"; }
  });
  document.addEventListener("htmx:wsClose", function (e) {
    var panel = e.detail.elt.closest("[data-live-panel]");
    var status = panel && panel.querySelector("[data-ws-status]");
    // After the session's end the stream has nothing more to say.
    if (status && !status.hasAttribute("data-ended")) {
      var signedOut = e.detail.event && e.detail.event.reason === "signed out";
      status.textContent = signedOut ? "signed out — sign in again to watch" : "disconnected — reload to resume";
      status.className = "ws-status bad";
    }
  });

  // Server form: only the section of the chosen transport shows; the
  // others are hidden and disabled, so they are not sent either. Without
  // script every section stays visible, with a hint saying which counts.
  function followTransport(select) {
    var form = select.form;
    function show() {
      form.querySelectorAll("[data-transports]").forEach(function (section) {
        var on = section.getAttribute("data-transports").split(" ").indexOf(select.value) >= 0;
        section.hidden = !on;
        section.disabled = !on;
      });
    }
    form.querySelectorAll("[data-transport-hint]").forEach(function (hint) { hint.hidden = true; });
    select.addEventListener("change", show);
    show();
  }

  // A form re-rendered with errors puts the cursor in the first field in
  // error, where the user has to look.
  function focusFirstError(form) {
    var field = form.querySelector("[aria-invalid=true]");
    if (field) field.focus();
  }

  // Traffic panels swapped in anew (a filter reloads its panel) scroll
  // like those the page came with.
  document.addEventListener("htmx:load", function (e) {
    var elt = e.detail.elt;
    if (elt.matches && elt.matches("[data-live-panel]")) stickToBottom(elt);
  });

  // A dismiss button removes the banner or toast it sits in.
  document.addEventListener("click", function (e) {
    var button = e.target.closest && e.target.closest("[data-dismiss]");
    if (button) button.parentElement.remove();
  });

  // The console's method list fills the params box with the method's
  // template, unless the box holds something typed by hand.
  document.addEventListener("change", function (e) {
    var input = e.target;
    if (!input.matches || !input.matches("[data-console-method]")) return;
    var option = Array.prototype.find.call(input.list ? input.list.options : [], function (o) { return o.value === input.value; });
    var box = input.form && input.form.elements.namedItem("params");
    if (!option || !box) return;
    if (box.value.trim() === "" || box.value === box.getAttribute("data-template")) {
      box.value = option.getAttribute("data-params") || "";
      box.setAttribute("data-template", box.value);
    }
  });

  // Tool cards: while a call runs, its form (htmx marks it htmx-request)
  // shows the time since it was sent; the live stream's progress messages
  // fill in its progress bar. A card swapped in by the answer starts over.
  var timers = new WeakMap();
  function isToolForm(elt) {
    return elt && elt.matches && elt.matches("form[data-call]");
  }
  document.addEventListener("htmx:beforeRequest", function (e) {
    var form = e.detail.elt;
    if (!isToolForm(form)) return;
    var elapsed = form.querySelector("[data-elapsed]");
    var bar = form.querySelector("[data-progress]");
    var text = form.querySelector("[data-progress-text]");
    if (bar) { bar.hidden = true; bar.removeAttribute("value"); }
    if (text) text.textContent = "";
    var start = Date.now();
    var tick = function () {
      if (elapsed) elapsed.textContent = ((Date.now() - start) / 1000).toFixed(1) + " s";
    };
    tick();
    clearInterval(timers.get(form));
    timers.set(form, setInterval(tick, 100));
  });
  document.addEventListener("htmx:afterRequest", function (e) {
    var form = e.detail.elt;
    if (!isToolForm(form)) return;
    clearInterval(timers.get(form));
    timers.delete(form);
  });
  function showProgress(form, p) {
    var bar = form.querySelector("[data-progress]");
    var text = form.querySelector("[data-progress-text]");
    if (bar) {
      if (p.total > 0) { bar.max = p.total; bar.value = Math.min(p.progress, p.total); }
      else bar.removeAttribute("value");
      bar.hidden = false;
    }
    if (text) {
      var s = String(p.progress) + (p.total > 0 ? " / " + p.total : "");
      if (p.message) s += " — " + p.message;
      text.textContent = s;
    }
  }
  // The live stream's JSON messages are call progress; its HTML messages
  // are htmx's to swap.
  document.addEventListener("htmx:wsBeforeMessage", function (e) {
    var m = e.detail.message;
    if (typeof m !== "string" || m.charAt(0) !== "{") return;
    e.preventDefault();
    var p;
    try { p = JSON.parse(m).callProgress; } catch (err) { return; }
    if (!p) return;
    document.querySelectorAll("form[data-call]").forEach(function (form) {
      if (form.getAttribute("data-call") === p.call && form.classList.contains("htmx-request")) showProgress(form, p);
    });
  });

  // A section's item list: the search box hides the items whose text and
  // description (the link's title) do not match as the user types; Enter
  // opens the first item still shown.
  function filterItems(input) {
    var list = input.closest("[data-testid=item-list]");
    var items = list.querySelectorAll("[data-items] > li");
    var none = list.querySelector("[data-no-match]");
    function apply() {
      var q = input.value.trim().toLowerCase(), shown = 0;
      items.forEach(function (li) {
        var link = li.querySelector("a");
        var text = li.textContent + " " + (link ? link.title : "");
        var on = q === "" || text.toLowerCase().indexOf(q) >= 0;
        li.hidden = !on;
        if (on) shown++;
      });
      if (none) none.hidden = shown > 0;
    }
    input.addEventListener("input", apply);
    // The item htmx opens becomes the list's current one.
    list.addEventListener("htmx:beforeRequest", function (e) {
      var link = e.detail.elt;
      if (!link.matches("[data-testid=item-link]")) return;
      list.querySelectorAll("[data-testid=item-link].active").forEach(function (a) {
        a.classList.remove("active");
        a.removeAttribute("aria-current");
      });
      link.classList.add("active");
      link.setAttribute("aria-current", "true");
    });
    input.form.addEventListener("submit", function (e) {
      var first = list.querySelector("[data-items] > li:not([hidden]) a");
      if (!first) return;
      e.preventDefault();
      window.location.assign(first.href);
    });
    apply();
  }

  // A notice that the server changed a list refreshes that list where the
  // page shows it, keeping the item that is open.
  function refreshChangedList(notice) {
    var list = document.querySelector('[data-list-kind="' + notice.getAttribute("data-list-changed") + '"]');
    if (!list) return;
    htmx.ajax("GET", window.location.pathname + window.location.search,
      { target: list, select: "[data-testid=item-list]", swap: "outerHTML" });
    var open = notice.querySelector("[data-list-open]");
    if (open) open.replaceWith(document.createTextNode("The list is up to date."));
  }

  // Content that htmx adds (and the page itself, at first) gets its
  // behaviour here.
  htmx.onLoad(function (root) {
    function each(sel, fn) {
      if (root.matches && root.matches(sel)) fn(root);
      root.querySelectorAll(sel).forEach(fn);
    }
    each("[data-item-filter]", filterItems);
    each("[data-list-changed]", refreshChangedList);
  });

  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("[data-live-panel]").forEach(stickToBottom);
    document.querySelectorAll("select[data-transport-select]").forEach(followTransport);
    document.querySelectorAll("form[data-testid=server-form]").forEach(focusFirstError);
  });
})();
