// Server requests (elicitation, sampling) open, for whoever may answer
// them, in a modal dialog with the cursor in its first field, one at a
// time, oldest first. Later puts the card back on the page; then, and for
// viewers, a toast fixed on screen names the oldest waiting ("Server asks:
// sampling") and how many more wait, and its Answer button opens the card
// in the dialog again. A card answered (here, or by someone else watching:
// the live stream then says who) or abandoned (the stream deletes it) is no
// longer a request and closes its dialog; the next opens, or the toast
// names it. A card's Accept (Send reply) stays disabled until its required
// fields are filled in and every field holds what its input allows. URL
// elicitations open their link only after the person has said yes to
// "Open <domain>?".
(function () {
  "use strict";
  var CARD = "[data-testid=input-request]";
  var dialog = null, body = null, home = null, toast = null;
  var dismissed = {}; // ids of the requests the toast was dismissed for
  var offered = {}; // ids of the requests the dialog opened by itself

  // canAnswer says whether the person may answer the card (a viewer's is disabled).
  function canAnswer(card) {
    return !card.querySelector("fieldset[disabled]");
  }

  // missing says whether a required field node of a schema form is left
  // blank: a text, number, choice or JSON input that is empty (unless
  // null is chosen), or choices none of which is chosen.
  function missing(node) {
    var nul = node.querySelector("[data-sf-null]");
    if (nul && nul.checked) return false;
    switch (node.getAttribute("data-sf-kind")) {
      case "multi": return !node.querySelector("[data-sf-multi]:checked");
      case "object": case "array": case "boolean": return false;
    }
    var input = node.querySelector("[data-sf-input], [data-sf-enum], [data-sf-json-field]");
    return !!input && input.value.trim() === "";
  }

  // mustFill says whether a required field node must be filled in: it is
  // not in an array item, and every object around it is required too.
  function mustFill(node, root) {
    for (var up = node.parentElement.closest("[data-sf-node], [data-sf-item]"); up && root.contains(up); up = up.parentElement.closest("[data-sf-node], [data-sf-item]")) {
      if (up.hasAttribute("data-sf-item") || !up.hasAttribute("data-sf-required")) return false;
    }
    return true;
  }

  // problem says why the card cannot be accepted yet, "" when it can.
  function problem(card) {
    var root = card.querySelector("[data-schemaform]");
    if (root) {
      var blank = Array.prototype.some.call(root.querySelectorAll("[data-sf-node][data-sf-required]"), function (n) {
        return mustFill(n, root) && missing(n);
      });
      if (blank) return "Fill in the required fields (*) first.";
      var wrong = Array.prototype.some.call(root.querySelectorAll("input, select, textarea"), function (el) {
        return el.willValidate && !el.validity.valid;
      });
      var jsonError = root.querySelector("[data-sf-json-error]");
      if (wrong || (jsonError && !jsonError.hidden)) return "Correct the fields marked first.";
    }
    var reply = card.querySelector("textarea[name=reply]");
    if (reply && reply.value.trim() === "") return "Write the reply first.";
    return "";
  }

  // gate enables the card's Accept only when the card can be accepted.
  function gate(card) {
    var accept = card.querySelector("[data-testid=input-accept]");
    if (!accept || !canAnswer(card)) return;
    var why = problem(card);
    accept.disabled = why !== "";
    accept.title = why;
  }

  document.addEventListener("input", gateFrom);
  document.addEventListener("change", gateFrom);
  // The JSON view updates the fields (and its error) after an input event.
  function gateFrom(e) {
    var card = e.target.closest && e.target.closest(CARD);
    if (card) setTimeout(function () { gate(card); }, 0);
  }

  function kindName(card) {
    switch (card.getAttribute("data-kind")) {
      case "sample": return "sampling";
      case "elicit-url": return "open a page";
      case "elicit-form": return "a form";
    }
    return "an answer";
  }

  // waiting lists the cards not in the dialog, oldest first (page order).
  function waiting() {
    return Array.prototype.filter.call(document.querySelectorAll(CARD), function (c) {
      return !dialog || !dialog.contains(c);
    });
  }

  function ensureDialog() {
    if (dialog) return;
    dialog = document.createElement("dialog");
    dialog.className = "input-dialog";
    dialog.setAttribute("data-testid", "input-dialog");
    dialog.setAttribute("aria-label", "The server is asking");
    var later = document.createElement("button");
    later.type = "button";
    later.className = "secondary small input-dialog-later";
    later.textContent = "Later";
    later.setAttribute("data-testid", "input-dialog-later");
    later.addEventListener("click", function () { dialog.close(); });
    body = document.createElement("div");
    dialog.append(later, body);
    dialog.addEventListener("close", putBack);
    document.body.append(dialog);
  }

  // open moves card into the dialog, leaving a marker where it was.
  function open(card) {
    ensureDialog();
    home = document.createComment("input card");
    card.before(home);
    body.replaceChildren(card);
    if (!dialog.open) dialog.showModal();
    var field = card.querySelector("textarea, input:not([type=hidden]), select, button");
    if (field) field.focus();
    refresh();
  }

  // putBack returns what the dialog holds to its place on the page, unless
  // the page has it again (a reconnected stream re-sent the panel).
  function putBack() {
    var held = body && body.firstElementChild;
    if (held && home && home.isConnected && !document.querySelectorAll("#" + CSS.escape(held.id))[1]) home.replaceWith(held);
    else if (held) held.remove();
    if (home) home.remove();
    home = null;
    refresh();
  }

  function showToast(first, more) {
    if (!toast) {
      toast = document.createElement("div");
      toast.className = "toast input-toast";
      toast.setAttribute("role", "alert");
      toast.setAttribute("data-testid", "input-toast");
      var text = document.createElement("span");
      var go = document.createElement("button");
      go.type = "button";
      go.textContent = "Answer";
      go.setAttribute("data-testid", "input-toast-go");
      go.addEventListener("click", function () {
        var card = toast.card;
        if (card && card.isConnected) open(card);
      });
      var close = document.createElement("button");
      close.type = "button";
      close.className = "dismiss";
      close.setAttribute("aria-label", "Dismiss");
      close.textContent = "×";
      close.addEventListener("click", function () {
        waiting().forEach(function (c) { dismissed[c.id] = true; });
        refresh();
      });
      toast.append(text, go, close);
      document.body.append(toast);
    }
    toast.card = first;
    toast.querySelector("span").textContent = "Server asks: " + kindName(first) + (more > 0 ? " (" + more + " more waiting)" : "");
  }

  // refresh makes the dialog and the toast follow the cards on the page:
  // the oldest card not yet offered that the person may answer opens.
  function refresh() {
    document.querySelectorAll(CARD).forEach(gate);
    if (dialog && dialog.open && !body.querySelector(CARD)) dialog.close();
    if (!dialog || !dialog.open) {
      var next = waiting().find(function (c) { return !offered[c.id] && canAnswer(c); });
      if (next) {
        offered[next.id] = true;
        open(next);
        return;
      }
    }
    var cards = waiting().filter(function (c) { return !dismissed[c.id]; });
    if (cards.length === 0 || (dialog && dialog.open)) {
      if (toast) { toast.remove(); toast = null; }
      return;
    }
    showToast(cards[0], cards.length - 1);
  }

  var scheduled = false;
  new MutationObserver(function (records) {
    // A card the live stream re-sends while the dialog holds it stays in
    // the dialog, where the person may be typing.
    var held = dialog && body.firstElementChild;
    if (held) records.forEach(function (r) {
      r.addedNodes.forEach(function (n) {
        if (n.nodeType !== 1 || dialog.contains(n)) return;
        var dup = n.id === held.id ? n : n.querySelector && n.querySelector("#" + CSS.escape(held.id));
        if (dup) dup.remove();
      });
    });
    if (scheduled) return;
    scheduled = true;
    requestAnimationFrame(function () { scheduled = false; refresh(); });
  }).observe(document.documentElement, { childList: true, subtree: true });

  // "Open <domain>…" asks first; the link shows only after that.
  document.addEventListener("click", function (e) {
    var t = e.target.closest && e.target.closest("[data-url-ask], [data-url-back]");
    if (!t) return;
    var box = t.closest("[data-url-target]");
    var ask = t.hasAttribute("data-url-ask");
    box.querySelector("[data-url-ask-step]").hidden = ask;
    box.querySelector("[data-url-confirm]").hidden = !ask;
    if (ask) box.querySelector("[data-url-confirm] a").focus();
  });

  document.addEventListener("DOMContentLoaded", refresh);
})();
