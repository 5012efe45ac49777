// Schema forms (views/schemaform.templ): array items added, removed and
// moved; a union's branch swapped in by its selector; optional booleans'
// "not sent" box; and the JSON view kept in sync with the fields both ways.
// Form → JSON on every input; JSON → form when the JSON parses (an invalid
// JSON text shows its error under the box and leaves the fields alone).
// Everything works by event delegation, so cards that htmx swaps in work too.
(function () {
  "use strict";

  function rootOf(el) { return el.closest("[data-schemaform]"); }

  // ownerNode is the field node (or the form's root) an element belongs to.
  function ownerNode(el) { return el.parentElement.closest("[data-sf-node], [data-schemaform]"); }

  // childNodes lists the field nodes directly inside container (a field
  // node or the root), through union branch bodies but not array items.
  function childNodes(container) {
    return Array.prototype.filter.call(container.querySelectorAll("[data-sf-node]"), function (n) {
      return ownerNode(n) === container && !isInItemOf(n, container);
    });
  }

  function isInItemOf(n, container) {
    var item = n.closest("[data-sf-item]");
    return item !== null && container.contains(item) && item !== container;
  }

  // own finds the first element matching sel that belongs to node itself.
  function own(node, sel) {
    return Array.prototype.find.call(node.querySelectorAll(sel), function (el) { return ownerNode(el) === node; }) || null;
  }

  function ownAll(node, sel) {
    return Array.prototype.filter.call(node.querySelectorAll(sel), function (el) { return ownerNode(el) === node; });
  }

  function items(arrayNode) {
    var list = own(arrayNode, "[data-sf-items]");
    return list ? Array.prototype.filter.call(list.children, function (li) { return li.matches("[data-sf-item]"); }) : [];
  }

  function itemNode(li) {
    return Array.prototype.find.call(li.querySelectorAll("[data-sf-node]"), function (n) { return n.parentElement.closest("[data-sf-item]") === li; });
  }

  var ABSENT = {};

  function parseJSON(text) {
    try { return JSON.parse(text); } catch (e) { return ABSENT; }
  }

  function isObject(v) { return v !== null && typeof v === "object" && !Array.isArray(v); }

  // read returns a node's value as Arguments on the server reads it, or
  // ABSENT when it is left out.
  function read(node, inItem) {
    var nul = own(node, "[data-sf-null]");
    if (nul && nul.checked) return null;
    var kind = node.getAttribute("data-sf-kind");
    switch (kind) {
      case "object": {
        var o = readObject(node);
        return Object.keys(o).length > 0 || inItem ? o : ABSENT;
      }
      case "array": {
        var out = [];
        items(node).forEach(function (li) {
          var child = itemNode(li);
          var v = read(child, true);
          if (v === ABSENT && child.getAttribute("data-sf-kind") === "string") v = "";
          if (v !== ABSENT) out.push(v);
        });
        return out.length > 0 ? out : ABSENT;
      }
      case "boolean": {
        var box = own(node, "[data-sf-bool]"), unset = own(node, "[data-sf-unset]");
        if (box.checked) return true;
        return unset && unset.checked ? ABSENT : false;
      }
      case "enum": {
        var sel = own(node, "[data-sf-enum]");
        return sel.value === "" ? ABSENT : parseJSON(sel.value);
      }
      case "multi": {
        var chosen = ownAll(node, "[data-sf-multi]").filter(function (b) { return b.checked; })
          .map(function (b) { return parseJSON(b.value); });
        return chosen.length > 0 ? chosen : ABSENT;
      }
      case "json": {
        var text = own(node, "[data-sf-json-field]").value.trim();
        return text === "" ? ABSENT : parseJSON(text);
      }
      default: {
        var input = own(node, "[data-sf-input]");
        var t = input.value.trim();
        if (t === "") return ABSENT;
        if (kind === "number" || kind === "integer") {
          var n = Number(t);
          return isFinite(n) ? n : ABSENT;
        }
        return t;
      }
    }
  }

  function readObject(container) {
    var o = {};
    childNodes(container).forEach(function (n) {
      var v = read(n, false);
      if (v !== ABSENT) o[n.getAttribute("data-sf-name")] = v;
    });
    return o;
  }

  // ownedNames are the keys an object's fields (and its union's branches)
  // stand for: the JSON view's other keys are kept as they are.
  function ownedNames(container) {
    var names = {};
    childNodes(container).forEach(function (n) { names[n.getAttribute("data-sf-name")] = true; });
    var union = own(container, "[data-sf-union]");
    if (union) JSON.parse(union.getAttribute("data-sf-names") || "[]").forEach(function (k) { names[k] = true; });
    return names;
  }

  // merge lays the form's value over the JSON view's previous one, keeping
  // keys the form has no field for, at every object level.
  function merge(container, formValue, prev) {
    if (!isObject(formValue) || !isObject(prev)) return formValue;
    var owned = ownedNames(container), out = {};
    Object.keys(prev).forEach(function (k) { if (!owned[k]) out[k] = prev[k]; });
    childNodes(container).forEach(function (n) {
      var k = n.getAttribute("data-sf-name");
      if (!(k in formValue)) return;
      out[k] = n.getAttribute("data-sf-kind") === "object" ? merge(n, formValue[k], prev[k]) : formValue[k];
    });
    Object.keys(formValue).forEach(function (k) { if (!(k in out)) out[k] = formValue[k]; });
    return out;
  }

  function jsonBox(root) { return root.querySelector("[data-sf-json]"); }

  function showJSONError(root, msg) {
    var p = root.querySelector("[data-sf-json-error]");
    p.textContent = msg;
    p.hidden = msg === "";
    jsonBox(root).classList.toggle("invalid", msg !== "");
  }

  function formToJSON(root) {
    var box = jsonBox(root);
    var prev = parseJSON(box.value.trim() === "" ? "{}" : box.value);
    var value = merge(root, readObject(root), isObject(prev) ? prev : {});
    box.value = JSON.stringify(value, null, 2);
    showJSONError(root, "");
  }

  function jsonToForm(root) {
    var text = jsonBox(root).value;
    var v;
    try {
      v = JSON.parse(text.trim() === "" ? "{}" : text);
    } catch (e) {
      showJSONError(root, "Not valid JSON: " + e.message + ". The fields keep their values until it is.");
      return;
    }
    if (!isObject(v)) {
      showJSONError(root, "The arguments must be a JSON object. The fields keep their values until they are.");
      return;
    }
    showJSONError(root, "");
    applyObject(root, v);
  }

  function sameJSON(a, b) { return JSON.stringify(a) === JSON.stringify(b); }

  function applyObject(container, o) {
    var union = own(container, "[data-sf-union]");
    if (union) {
      var best = bestBranch(union, o);
      var sel = union.querySelector(":scope > [data-sf-choice]");
      if (best !== null && String(best) !== sel.value) {
        sel.value = String(best);
        switchBranch(union);
      }
    }
    childNodes(container).forEach(function (n) {
      var k = n.getAttribute("data-sf-name");
      apply(n, Object.prototype.hasOwnProperty.call(o, k) ? o[k] : ABSENT);
    });
  }

  // bestBranch picks the branch whose fields hold most of o's keys, a
  // single-choice (const) field that matches counting most; null when no
  // branch holds any.
  function bestBranch(union, o) {
    var best = null, bestScore = 0;
    union.querySelectorAll(":scope > template[data-sf-branch]").forEach(function (t) {
      var score = 0;
      t.content.querySelectorAll("[data-sf-node]").forEach(function (n) {
        if (n.parentElement && n.parentElement.closest("[data-sf-node]")) return; // not a branch field itself
        var k = n.getAttribute("data-sf-name");
        if (!Object.prototype.hasOwnProperty.call(o, k)) return;
        score++;
        var opts = n.querySelectorAll("[data-sf-enum] option:not([value=''])");
        if (opts.length === 1) score += sameJSON(parseJSON(opts[0].value), o[k]) ? 100 : -100;
      });
      if (score > bestScore) { best = Number(t.getAttribute("data-sf-branch")); bestScore = score; }
    });
    return best;
  }

  function apply(node, v) {
    var nul = own(node, "[data-sf-null]");
    if (nul) {
      nul.checked = v === null;
      markNull(node, nul);
      if (v === null) return;
    }
    var kind = node.getAttribute("data-sf-kind");
    switch (kind) {
      case "object":
        applyObject(node, isObject(v) ? v : {});
        return;
      case "array": {
        var want = Array.isArray(v) ? v : [];
        while (items(node).length < want.length) addItem(node);
        items(node).slice(want.length).forEach(function (li) { li.remove(); });
        items(node).forEach(function (li, i) { apply(itemNode(li), want[i]); });
        renumber(node);
        return;
      }
      case "boolean": {
        var box = own(node, "[data-sf-bool]"), unset = own(node, "[data-sf-unset]");
        box.checked = v === true;
        if (unset) unset.checked = v !== true && v !== false;
        return;
      }
      case "enum": {
        var sel = own(node, "[data-sf-enum]");
        var match = Array.prototype.find.call(sel.options, function (opt) {
          return opt.value !== "" && v !== ABSENT && sameJSON(parseJSON(opt.value), v);
        });
        sel.value = match ? match.value : "";
        return;
      }
      case "multi": {
        var list = Array.isArray(v) ? v : [];
        ownAll(node, "[data-sf-multi]").forEach(function (b) {
          var member = parseJSON(b.value);
          b.checked = list.some(function (x) { return sameJSON(x, member); });
        });
        return;
      }
      case "json":
        own(node, "[data-sf-json-field]").value = v === ABSENT ? "" : JSON.stringify(v);
        return;
      default:
        own(node, "[data-sf-input]").value = v === ABSENT || v === null || typeof v === "object" ? "" : String(v);
    }
  }

  function markNull(node, nul) { node.classList.toggle("sf-is-null", nul.checked); }

  // Array items. A new item is its template with the placeholder index
  // replaced; after a removal or a move, every item's paths are rewritten
  // to its position, so that names stay arg.path.0, arg.path.1, …
  function addItem(arrayNode) {
    var tpl = own(arrayNode, "template[data-sf-item-template]");
    var list = own(arrayNode, "[data-sf-items]");
    var index = items(arrayNode).length;
    var holder = document.createElement("template");
    holder.innerHTML = tpl.innerHTML.split(tpl.getAttribute("data-sf-placeholder")).join(String(index));
    list.appendChild(holder.content);
    return items(arrayNode)[index];
  }

  function escapeRe(s) { return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"); }

  var PATH_ATTRS = ["name", "id", "for", "data-sf-path", "data-sf-array", "data-testid"];

  function renumber(arrayNode) {
    var path = arrayNode.getAttribute("data-sf-array");
    items(arrayNode).forEach(function (li, k) {
      var marker = Array.prototype.find.call(li.querySelectorAll("input[type=hidden]"), function (i) {
        return i.parentElement.closest("[data-sf-item]") === li && /\?item$/.test(i.name);
      });
      var old = marker.name.slice(("arg." + path + ".").length, -"?item".length);
      var num = li.querySelector("[data-sf-item-number]");
      if (num) num.textContent = String(k + 1);
      if (old === String(k)) return;
      var re = new RegExp("(^|[.\\-])" + escapeRe(path + "." + old) + "(?=[.?\\-]|$)", "g");
      var to = "$1" + path + "." + k;
      [li].concat(Array.prototype.slice.call(li.querySelectorAll("*"))).forEach(function (el) {
        PATH_ATTRS.forEach(function (a) {
          var val = el.getAttribute(a);
          if (val !== null && val.indexOf(path + "." + old) >= 0) el.setAttribute(a, val.replace(re, to));
        });
        if (el.tagName === "TEMPLATE") el.innerHTML = el.innerHTML.replace(re, to);
      });
    });
  }

  // Union branches: the detached fields of a branch are kept, so that
  // switching back restores what the user typed.
  var branchCache = new WeakMap();

  function switchBranch(union) {
    var sel = union.querySelector(":scope > [data-sf-choice]");
    var body = union.querySelector(":scope > [data-sf-branch-body]");
    var cache = branchCache.get(union) || {};
    branchCache.set(union, cache);
    var frag = document.createDocumentFragment();
    while (body.firstChild) frag.appendChild(body.firstChild);
    cache[body.getAttribute("data-sf-shown")] = frag;
    var next = sel.value;
    body.appendChild(cache[next] || union.querySelector(":scope > template[data-sf-branch='" + next + "']").content.cloneNode(true));
    delete cache[next];
    body.setAttribute("data-sf-shown", next);
  }

  document.addEventListener("click", function (e) {
    var btn = e.target.closest("[data-sf-add], [data-sf-remove], [data-sf-up], [data-sf-down]");
    if (!btn || !rootOf(btn)) return;
    var arrayNode, li = btn.closest("[data-sf-item]");
    if (btn.matches("[data-sf-add]")) {
      arrayNode = btn.closest("[data-sf-array]");
      var added = addItem(arrayNode);
      var first = added.querySelector("input:not([type=hidden]), select, textarea");
      if (first) first.focus();
    } else {
      arrayNode = li.parentElement.closest("[data-sf-array]");
      if (btn.matches("[data-sf-remove]")) {
        li.remove();
      } else if (btn.matches("[data-sf-up]") && li.previousElementSibling) {
        li.parentElement.insertBefore(li, li.previousElementSibling);
      } else if (btn.matches("[data-sf-down]") && li.nextElementSibling) {
        li.parentElement.insertBefore(li.nextElementSibling, li);
      }
      btn.focus();
    }
    renumber(arrayNode);
    formToJSON(rootOf(arrayNode));
  });

  function onEdit(e) {
    var t = e.target, root = rootOf(t);
    if (!root) return;
    if (t.matches("[data-sf-json]")) {
      if (e.type === "input") jsonToForm(root);
      return;
    }
    if (t.matches("[data-sf-choice]") && e.type === "change") switchBranch(t.closest("[data-sf-union]"));
    if (t.matches("[data-sf-bool]") && t.checked) {
      var unset = own(ownerNode(t), "[data-sf-unset]");
      if (unset) unset.checked = false;
    }
    if (t.matches("[data-sf-unset]") && t.checked) own(ownerNode(t), "[data-sf-bool]").checked = false;
    if (t.matches("[data-sf-null]")) markNull(ownerNode(t), t);
    formToJSON(root);
  }
  document.addEventListener("input", onEdit);
  document.addEventListener("change", onEdit);

  // A card htmx swaps in starts with null fields marked.
  function markAll(el) {
    (el || document).querySelectorAll("[data-sf-null]").forEach(function (n) { markNull(ownerNode(n), n); });
  }
  document.addEventListener("DOMContentLoaded", function () { markAll(document); });
  document.addEventListener("htmx:afterSwap", function (e) { markAll(e.detail.elt.parentElement || document); });
})();
