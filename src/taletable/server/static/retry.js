// Safe retries (issue 34.7): every change a page posts carries an Idempotency-Key, so the
// server takes it once however often it arrives (server/retries.py).
//
// A form's key is made when it is sent, and kept while it is the same change: sent again while
// the first is on its way (a double click), or after its answer was lost (no answer, or a
// gateway's 5xx) with the form unchanged, it goes with the same key, and the server answers
// with the first answer. Once an answer came, the next send is a new change with a new key.
(function () {
  "use strict";
  function newKey() {
    var bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) {
      return (b < 16 ? "0" : "") + b.toString(16);
    }).join("");
  }
  function content(elt) {
    var form = elt.tagName === "FORM" ? elt : elt.form;
    var parts = [elt.getAttribute("hx-vals") || ""];
    if (form) {
      new FormData(form).forEach(function (value, name) {
        if (name !== "idempotency_key") {
          var text = typeof value === "string" ? value : value.name + ":" + value.size;
          parts.push(name + "=" + text);
        }
      });
    }
    return parts.join("&");
  }
  // Called as a change is asked for (a submit, a click on a button that posts): a new key
  // unless the same change is on its way (then it is sent again: "again") or its answer was
  // lost.
  function arm(elt) {
    var now = content(elt);
    var state = elt.getAttribute("data-retry-state");
    if (!elt.getAttribute("data-retry-key") || state === "answered" ||
        elt.getAttribute("data-retry-content") !== now) {
      elt.setAttribute("data-retry-key", newKey());
      elt.setAttribute("data-retry-state", "armed");
    } else if (state === "sent") {
      elt.setAttribute("data-retry-state", "again");
    }
    elt.setAttribute("data-retry-content", now);
  }
  function posts(elt) {
    return !!elt && elt.nodeType === 1 &&
      (elt.hasAttribute("hx-post") || elt.hasAttribute("data-hx-post"));
  }
  document.addEventListener("submit", function (event) {
    if (posts(event.target)) { arm(event.target); }
  }, true);
  document.addEventListener("click", function (event) {
    var button = event.target.closest ? event.target.closest("[hx-post], [data-hx-post]") : null;
    if (button && button.tagName !== "FORM") { arm(button); }
  }, true);
  document.addEventListener("htmx:configRequest", function (event) {
    var detail = event.detail;
    if (!detail || detail.verb === "get") { return; }
    var elt = detail.elt;
    // sent by another trigger than a submit or a click (a change, a delay): a new change
    if (!elt.getAttribute("data-retry-key") ||
        elt.getAttribute("data-retry-state") === "answered") {
      elt.setAttribute("data-retry-key", newKey());
    }
    detail.headers["Idempotency-Key"] = elt.getAttribute("data-retry-key");
    elt.setAttribute("data-retry-state", "sent");
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    var detail = event.detail;
    if (!detail || !detail.elt || !detail.requestConfig || detail.requestConfig.verb === "get") {
      return;
    }
    if (detail.elt.getAttribute("data-retry-state") === "again") { return; }  // sent again next
    var status = detail.xhr ? detail.xhr.status : 0;
    detail.elt.setAttribute("data-retry-state", status > 0 && status < 500 ? "answered" : "lost");
  });
})();
