// Commission's only script: enhancements over forms that all work without it.
//
// - Quick entry: the stepper, the product's price, product search.
// - The offline queue: a sale saved (or repeated) with no network waits on this phone, in
//   IndexedDB, with the idempotency key made at the tap, and is sent when the network returns —
//   recorded once however the connection failed, since the server answers a key it has seen with
//   the sale it already made. A sale the server refuses on sending stays here with the reason,
//   to correct or discard.
// - The connection badge tells the truth: live, reconnecting, offline, and how many sales wait.
// - The dashboard updates live from the server's event stream.
// - On a phone, filter forms marked data-autosubmit show what is chosen as soon as it changes.
// Amounts are never numbers here: they travel as the strings typed or as the server wrote them.
(function () {
  "use strict";
  function $(selector, root) { return (root || document).querySelector(selector); }
  function all(selector, root) { return Array.prototype.slice.call((root || document).querySelectorAll(selector)); }
  var signedIn = document.body.classList.contains("signed-in");
  document.documentElement.classList.add("js");

  // ---- Filter forms whose button a phone's layout hides (app.css) show what they select as soon
  // as it changes; on wide screens, and without this script, the button is there to press.
  all("form[data-autosubmit]").forEach(function (form) {
    var button = $("button[type=submit]", form);
    form.addEventListener("change", function () {
      if (!button || getComputedStyle(button).display !== "none") { return; }
      if (form.requestSubmit) { form.requestSubmit(); } else { form.submit(); }
    });
  });

  // ---- The installable app: the service worker keeps the shell and the last pages for offline use.
  if (signedIn && "serviceWorker" in navigator) {
    navigator.serviceWorker.register("/sw.js").catch(function () {});
  }
  // Signing out (or in as someone else) forgets the pages kept for offline use, and this browser's
  // push subscription: its endpoint goes with the form (the server forgets the device), then the
  // browser unsubscribes, so that a signed-out phone is sent nothing more.
  all("form[action='/logout']").forEach(function (form) {
    var leaving = false;
    form.addEventListener("submit", function (event) {
      if (window.caches) { caches.delete("commission-pages"); }
      if (leaving || !("serviceWorker" in navigator) || !window.PushManager) { return; }
      event.preventDefault();
      leaving = true;
      var field = form.querySelector("input[name=pushEndpoint]");
      var done = function () { form.submit(); };
      navigator.serviceWorker.getRegistration().then(function (registration) {
        return registration && registration.pushManager.getSubscription();
      }).then(function (subscription) {
        if (!subscription) { return done(); }
        if (field) { field.value = subscription.endpoint; }
        subscription.unsubscribe().then(done, done);
      }).catch(done);
    });
  });
  if (!signedIn && window.caches && location.pathname === "/login") { caches.delete("commission-pages"); }

  // ---- The connection badge.
  var connection = { online: navigator.onLine, stream: null, waiting: 0 };
  function showConnection() {
    var badge = $("#connection");
    if (!badge) { return; }
    var text = "", state = "";
    if (!connection.online) {
      text = "offline"; state = "offline";
    } else if (connection.stream === "reconnecting") {
      text = "reconnecting…"; state = "reconnecting";
    } else if (connection.stream === "live") {
      text = "live"; state = "live";
    }
    if (connection.waiting > 0) { text += (text ? " · " : "") + connection.waiting + " waiting to send"; }
    badge.textContent = text;
    badge.setAttribute("data-state", state);
    badge.hidden = text === "";
    var asOf = $("#as-of");
    if (asOf) {
      var rendered = new Date(document.body.getAttribute("data-rendered"));
      var offline = $("#offline-note") || document.createElement("strong");
      offline.id = "offline-note";
      offline.textContent = connection.online ? "" : " · offline: as of " + rendered.toLocaleString([], { dateStyle: "short", timeStyle: "short" });
      if (!offline.parentNode) { asOf.appendChild(offline); }
    }
  }
  window.addEventListener("online", function () { connection.online = true; showConnection(); flush(); });
  window.addEventListener("offline", function () { connection.online = false; showConnection(); });
  // The phone may think it is online (a Wi-Fi without the internet) while this page came from the
  // copy kept for offline use: the page asks the server at once, and says "offline" as soon as it
  // knows — not only when a sale fails to go.
  function probe() {
    if (!signedIn || !window.fetch) { return; }
    var answered = false;
    var slow = setTimeout(function () { if (!answered) { connection.online = false; showConnection(); } }, 4000);
    fetch("/health", { cache: "no-store", credentials: "omit" }).then(function (response) {
      answered = true;
      clearTimeout(slow);
      noticeRelease(response);
      if (!connection.online) { connection.online = true; showConnection(); flush(); } else { reloadIfMoved(); }
    }, function () {
      answered = true;
      clearTimeout(slow);
      connection.online = false;
      showConnection();
    });
  }

  // ---- Quick entry.
  all("[data-step]").forEach(function (button) {
    button.addEventListener("click", function () {
      var input = $("#quantity");
      var step = parseInt(button.getAttribute("data-step"), 10);
      var next = (parseInt(input.value, 10) || 0) + step;
      if (next === 0) { next += step; }
      input.value = String(next);
    });
  });
  // Choosing a product (or another clinic) puts its price at that clinic in the price field,
  // exactly as the server wrote it, and shows each product's price there. A price left as put is
  // sent as the page's default, which the server replaces with the clinic's price on the sale's date.
  function clinicPrice(radio) {
    var prices = {};
    try { prices = JSON.parse(radio.getAttribute("data-prices") || "{}"); } catch (e) { prices = {}; }
    var clinic = $("#clinic");
    return prices[clinic ? clinic.value : ""] || prices.own || [radio.getAttribute("data-price"), ""];
  }
  function applyPrices() {
    all("input[name=product]").forEach(function (radio) {
      var price = clinicPrice(radio);
      var shown = radio.parentNode.querySelector(".price");
      if (shown && price[1]) { shown.textContent = price[1]; }
      if (radio.checked) {
        var field = $("#price"), fallback = $("#price-default");
        if (field) { field.value = price[0]; }
        if (fallback) { fallback.value = price[0]; }
      }
    });
  }
  all("input[name=product]").forEach(function (radio) { radio.addEventListener("change", applyPrices); });
  var clinicSelect = $("#clinic");
  if (clinicSelect && $("input[name=product]")) { clinicSelect.addEventListener("change", applyPrices); }
  var search = $("#product-search");
  if (search) {
    search.addEventListener("input", function () {
      var text = search.value.trim().toLowerCase();
      all("label.product").forEach(function (label) {
        label.hidden = text !== "" && label.textContent.toLowerCase().indexOf(text) < 0;
      });
    });
  }
  // A return says so on its button.
  var returnBox = $("#return"), saveButton = $("#save");
  if (returnBox && saveButton) {
    var saveLabel = function () { saveButton.textContent = returnBox.checked ? "Save return" : "Save sale"; };
    returnBox.addEventListener("change", saveLabel);
    saveLabel();
  }
  // A page kept offline may be from another day: a date it drew as "today" follows the phone's today.
  var saleForm = $("#sale-form");
  if (saleForm) {
    var dateField = $("#date", saleForm);
    var drawnToday = saleForm.getAttribute("data-today");
    if (dateField && dateField.value === drawnToday && localToday() !== drawnToday) { dateField.value = localToday(); }
  }

  // ---- Set-up: the book's time zone is the phone's own (Intl) rather than the server's.
  var zone = $("[data-propose-time-zone]");
  if (zone && window.Intl && Intl.DateTimeFormat) {
    var own = Intl.DateTimeFormat().resolvedOptions().timeZone;
    if (own) { zone.value = own; }
  }

  // ---- A clinic's pay schedule: show what the chosen kind needs (each clinic's own, where a form
  // has several).
  all("[data-schedule-kind]").forEach(function (kind) {
    var scope = kind.closest("[data-schedule-scope]") || kind.form || document;
    var showKind = function () {
      all("[data-for-kind]", scope).forEach(function (part) { part.hidden = part.getAttribute("data-for-kind") !== kind.value; });
    };
    kind.addEventListener("change", showKind);
    showKind();
  });

  // ---- A terms form's tiers: a row each; "Add a higher share" adds an empty one, "Remove" takes one away
  // (the last one left is emptied and put away). Without the script the form has one empty row to
  // fill; with it, an empty row is not shown until she asks for a tier.
  all("[data-tiers]").forEach(function (tiers) {
    var add = $("[data-add-tier]", tiers);
    function number() {
      all("[data-tier-row]", tiers).forEach(function (row, index) {
        all("input", row).forEach(function (input) {
          var threshold = /Threshold/.test(input.name);
          input.name = (threshold ? "tierThreshold" : "tierShare") + index;
          input.id = (threshold ? "t-beyond-" : "t-tier-share-") + index;
          input.closest(".field").querySelector("label").setAttribute("for", input.id);
        });
        $("[data-remove-tier]", row).setAttribute("aria-label", "Remove tier " + (index + 1));
      });
    }
    function wire(row) {
      var remove = $("[data-remove-tier]", row);
      remove.hidden = false;
      remove.addEventListener("click", function () {
        if (all("[data-tier-row]", tiers).length > 1) { row.parentNode.removeChild(row); } else { all("input", row).forEach(function (i) { i.value = ""; }); row.hidden = true; }
        number();
      });
    }
    function empty(row) { return all("input", row).every(function (i) { return !i.value.trim(); }); }
    all("[data-tier-row]", tiers).forEach(wire);
    // The empty row the page draws for a new tier: put away (the first kept, as the one to show).
    var rows = all("[data-tier-row]", tiers);
    rows.forEach(function (row, index) {
      if (!empty(row)) { return; }
      if (index === 0 && rows.length === 1) { row.hidden = true; } else { row.parentNode.removeChild(row); }
    });
    number();
    add.hidden = false;
    add.addEventListener("click", function () {
      var rows = all("[data-tier-row]", tiers);
      if (rows.length === 1 && rows[0].hidden) {
        rows[0].hidden = false;
        $("input", rows[0]).focus();
        return;
      }
      var copy = rows[rows.length - 1].cloneNode(true);
      all("input", copy).forEach(function (i) { i.value = ""; });
      add.parentNode.insertBefore(copy, add);
      wire(copy);
      number();
      $("input", copy).focus();
    });
  });

  // ---- A file picker's label says which file was chosen.
  all(".file-input").forEach(function (input) {
    var name = document.querySelector("label[for='" + input.id + "'] [data-file-name]");
    if (!name) { return; }
    input.addEventListener("change", function () {
      name.textContent = input.files.length ? input.files[0].name : "none chosen yet";
    });
  });

  // ---- A chosen CSV file is read into its text area (data-read-into), so the form posts it as text.
  // A PDF (its first bytes "%PDF-") cannot be: where the input names a route for it (data-upload-to),
  // the form is sent there as an upload instead, the file in the part data-upload-name, the text
  // area left out (the server reads the PDF's table and shows its text there).
  if (window.FileReader) {
    Array.prototype.forEach.call(document.querySelectorAll("input[type=file][data-read-into]"), function (file) {
      var form = file.form, text = $(file.getAttribute("data-read-into"));
      var posted = form && { action: form.getAttribute("action"), enctype: form.getAttribute("enctype") };
      function asText(chosen) {
        file.removeAttribute("name");
        text.disabled = false;
        if (posted) { form.setAttribute("action", posted.action); form.enctype = posted.enctype || "application/x-www-form-urlencoded"; }
        var reader = new FileReader();
        reader.onload = function () { text.value = reader.result; };
        reader.readAsText(chosen);
      }
      file.addEventListener("change", function () {
        if (!file.files.length) { return; }
        var chosen = file.files[0], target = file.getAttribute("data-upload-to");
        if (!target || !form) { asText(chosen); return; }
        var head = new FileReader();
        head.onload = function () {
          if (head.result !== "%PDF-") { asText(chosen); return; }
          file.setAttribute("name", file.getAttribute("data-upload-name"));
          text.value = "";
          text.disabled = true;
          form.setAttribute("action", target);
          form.enctype = "multipart/form-data";
        };
        head.readAsText(chosen.slice(0, 5));
      });
    });
  }

  // ---- The offline queue.
  function localToday() {
    var now = new Date();
    function two(n) { return (n < 10 ? "0" : "") + n; }
    return now.getFullYear() + "-" + two(now.getMonth() + 1) + "-" + two(now.getDate());
  }
  function newKey() {
    if (window.crypto && crypto.randomUUID) { return crypto.randomUUID(); }
    var bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) { return (b < 16 ? "0" : "") + b.toString(16); }).join("");
  }
  var database = null;
  function store(mode, work) {
    if (!window.indexedDB) { return Promise.reject(new Error("no IndexedDB")); }
    if (!database) {
      database = new Promise(function (resolve, reject) {
        var request = indexedDB.open("commission", 1);
        request.onupgradeneeded = function () { request.result.createObjectStore("queue", { keyPath: "key" }); };
        request.onsuccess = function () { resolve(request.result); };
        request.onerror = function () { reject(request.error); };
      });
    }
    return database.then(function (db) {
      return new Promise(function (resolve, reject) {
        var transaction = db.transaction("queue", mode);
        var result = work(transaction.objectStore("queue"));
        transaction.oncomplete = function () { resolve(result && "result" in result ? result.result : undefined); };
        transaction.onerror = function () { reject(transaction.error); };
      });
    });
  }
  function queued() { return store("readonly", function (s) { return s.getAll(); }).then(function (r) { return r || []; }); }
  function keep(record) { return store("readwrite", function (s) { s.put(record); }); }
  function forget(key) { return store("readwrite", function (s) { s.delete(key); }); }

  // Sends one sale; says whether it was recorded, refused (with the server's sentence), or must wait.
  function send(record) {
    var body = new URLSearchParams(record.body);
    body.set("csrf", document.body.getAttribute("data-csrf") || body.get("csrf"));  // this page's token
    return fetch(record.url, {
      method: "POST", credentials: "same-origin", redirect: "manual", body: body.toString(),
      headers: { "Content-Type": "application/x-www-form-urlencoded", "Accept": "application/json" }
    }).then(function (response) {
      noticeRelease(response);
      if (response.type === "opaqueredirect" || response.status === 401) {
        return { outcome: "wait", reason: "Sign in again to send it." };
      }
      return response.json().catch(function () { return {}; }).then(function (json) {
        if (response.ok) { return { outcome: "recorded", json: json }; }
        if (response.status >= 400 && response.status < 500 && response.status !== 408 && response.status !== 429) {
          return { outcome: "refused", reason: json.detail || ("The server refused it (" + response.status + ")."),
                   field: json.field || "", confirm: json.confirm === true };
        }
        return { outcome: "wait", reason: "" };
      });
    }, function () { return { outcome: "wait", reason: "" }; });
  }

  function describe(form) {
    var product = $("input[name=product]:checked", form);
    var name = product ? product.parentNode.querySelector(".name").textContent : "a product";
    var clinic = $("#clinic", form);
    var date = $("#date", form);
    return $("#quantity", form).value + " × " + name + " at " + (clinic ? clinic.options[clinic.selectedIndex].text : "") +
      (date && date.value !== localToday() ? " on " + date.value : "") + ", price " +
      ($("#price", form).value ? $("#price", form).value + " " + (form.getAttribute("data-currency") || "") : "the product's");
  }

  function notice(text, kind) {
    var main = $("#main");
    var p = $("#queue-notice") || document.createElement("p");
    p.id = "queue-notice";
    p.className = kind || "notice";
    p.setAttribute("role", kind === "error" ? "alert" : "status");
    p.textContent = text;
    if (!p.parentNode) { main.insertBefore(p, main.firstChild); }
    return p;
  }

  // A refusal (or a question) of the sale just sent: its sentence at the top of her screen, the
  // field it is about marked and focused, everything she typed still there; a question ("Save
  // anyway?") with the button that sends the same sale again, taken.
  function refuse(result, form, again) {
    all("[aria-invalid]", form).forEach(function (field) { field.removeAttribute("aria-invalid"); });
    all(".field-error", form).forEach(function (said) { said.parentNode.removeChild(said); });
    var asking = result.confirm && again;
    var p = notice(result.reason, asking ? "notice question" : "error");
    var yes = null;
    // One action at a time: while it asks, its two answers are the only ones (Save steps aside).
    var save = $("#save", form);
    var answered = function () { if (save) { save.hidden = false; } var q = $("#queue-notice"); if (q) { q.parentNode.removeChild(q); } };
    if (save) { save.hidden = asking; }
    var missed = $("#missed");
    if (missed) { missed.hidden = true; }
    if (asking) {
      yes = button("Save anyway", function () { answered(); again(); });
      yes.className = "primary";
      var change = button("Change it", function () {
        answered();
        var asked = result.field && form.elements[result.field];
        if (asked && asked.focus) { asked.classList.remove("asked"); asked.focus(); }
      });
      var answers = document.createElement("span");
      answers.className = "answers";
      answers.appendChild(yes);
      answers.appendChild(change);
      p.appendChild(document.createTextNode(" "));
      p.appendChild(answers);
    }
    var field = result.field && form.elements[result.field];
    if (field && field.length && !field.tagName) { field = field[0]; }  // a group of radios
    if (field) {
      var details = field.closest && field.closest("details");
      if (details) { details.open = true; }
      // A question marks its field as asked about, a refusal as wrong.
      if (asking) { field.classList.add("asked"); } else { field.setAttribute("aria-invalid", "true"); }
      field.setAttribute("aria-describedby", "queue-notice");
      // Beside the field too, where it is not in the bar that stays on the screen.
      if (!asking && field.closest && !field.closest(".savebar") && field.parentNode) {
        var beside = document.createElement("p");
        beside.className = "field-error";
        beside.textContent = result.reason;
        field.parentNode.insertBefore(beside, field.nextSibling);
      }
    }
    // The sentence where her eye is: a field in the bar that stays on the screen is seen with the
    // sentence at the top; any other field is brought to the top, its sentence beside it.
    var label = field && field.id && document.querySelector("label[for='" + field.id + "']");
    if (field && !asking && field.closest && !field.closest(".savebar") && (label || field).scrollIntoView) {
      (label || field).scrollIntoView({ block: "start" });
    } else {
      window.scrollTo(0, 0);
    }
    if (yes) { yes.focus({ preventScroll: true }); }
    else if (field && field.focus) { field.focus({ preventScroll: true }); }
  }

  var flushing = false;
  function flush() {
    if (flushing || !connection.online) { return Promise.resolve(); }
    flushing = true;
    var sent = [];
    return queued().then(function (records) {
      var waiting = records.filter(function (r) { return r.status === "waiting"; }).sort(function (a, b) { return a.created - b.created; });
      var chain = Promise.resolve(true);
      waiting.forEach(function (record) {
        chain = chain.then(function (goOn) {
          if (!goOn) { return false; }
          return send(record).then(function (result) {
            if (result.outcome === "recorded") { sent.push(result.json.saved || record.summary); return forget(record.key).then(function () { return true; }); }
            if (result.outcome === "refused") { record.status = "refused"; record.reason = result.reason; record.confirm = result.confirm; return keep(record).then(function () { return true; }); }
            if (result.reason) { record.reason = result.reason; return keep(record).then(function () { return false; }); }
            return false;  // no network after all: the rest wait too
          });
        });
      });
      return chain;
    }).catch(function () {}).then(function () {
      flushing = false;
      var said = sent.length ? "Sent " + sent.length + " sale" + (sent.length === 1 ? "" : "s") + " saved offline: " + sent.join("; ") + "." : "";
      if (said) { notice(said); }
      return showQueue().then(function () { reloadIfMoved(said); });
    });
  }

  // ---- The server's release. The page says the release it was drawn by (data-release), every
  // answer the server's (Commission-Release): once they differ (the server upgraded, or rolled
  // back, while this page stayed open on her phone) the page loads itself again — its address
  // asked afresh (a page drawn for a form sent is never sent again) — as soon as nothing waits to
  // be sent (a queued sale goes first, under its key, to the server that now answers) and nothing
  // on it is hers to lose: no field she changed since it was drawn or since her last sale was
  // kept, no refusal or question on it, no answer the server drew for what she sent. What it had
  // just said is said again after. Once per release in a tab: servers of two releases behind one
  // address (an upgrade rolling through them) never load it again and again.
  var release = document.body.getAttribute("data-release") || "";
  var moved = null, edited = false;
  ["input", "change"].forEach(function (kind) {
    document.addEventListener(kind, function (event) { if (event.isTrusted && event.target.form) { edited = true; } }, true);
  });
  function noticeRelease(response) {
    var theirs = response && response.headers ? response.headers.get("Commission-Release") : null;
    if (release && theirs && theirs !== release) { moved = theirs; }
  }
  function hersToLose() {
    var notices = all("#main > .notice, #main > .error, #refusal, .question").filter(function (p) { return p.id !== "queue-notice" && !p.classList.contains("missed"); });
    return edited || notices.length > 0 || !!$("#queue-notice.question");
  }
  function reloadIfMoved(said) {
    if (!moved || connection.waiting > 0 || hersToLose() || !window.sessionStorage) { return; }
    try {
      var done = JSON.parse(sessionStorage.getItem("commission-reloaded-for") || "[]");
      if (done.indexOf(moved) >= 0) { return; }
      done.push(moved);
      sessionStorage.setItem("commission-reloaded-for", JSON.stringify(done));
      if (said) { sessionStorage.setItem("commission-notice", said); }
    } catch (e) { return; }
    location.replace(location.pathname + location.search);
  }
  document.addEventListener("visibilitychange", function () { if (document.visibilityState === "visible") { probe(); } });

  function showQueue() {
    return queued().then(function (records) {
      connection.waiting = records.filter(function (r) { return r.status === "waiting"; }).length;
      showConnection();
      var section = $("#queue");
      if (!section) { return; }
      section.hidden = records.length === 0;
      // While sales wait on the phone, the nudge about missed days steps aside: the form stays high.
      var missed = $("#missed");
      if (missed) { missed.hidden = records.length > 0; }
      section.textContent = "";
      if (!records.length) { return; }
      var title = document.createElement("p");
      var refused = records.length - connection.waiting;
      title.innerHTML = "";
      var strong = document.createElement("strong");
      strong.id = "queue-count";
      strong.textContent = connection.waiting ? connection.waiting + " waiting to send" : "";
      title.appendChild(strong);
      if (refused) { title.appendChild(document.createTextNode((connection.waiting ? " · " : "") + refused + " refused")); }
      // One line: the count and Send now; the sales themselves folded, open when one was refused
      // (it waits for her: Correct or Discard).
      var head = document.createElement("div");
      head.className = "queue-head";
      head.appendChild(title);
      if (connection.waiting) { head.appendChild(button("Send now", function () { flush(); })); }
      section.appendChild(head);
      var details = document.createElement("details");
      details.open = refused > 0;
      var summary = document.createElement("summary");
      summary.textContent = records.length === 1 ? "The sale" : "The " + records.length + " sales";
      details.appendChild(summary);
      var list = document.createElement("ul");
      records.sort(function (a, b) { return a.created - b.created; }).forEach(function (record) {
        var item = document.createElement("li");
        item.setAttribute("data-key", record.key);
        item.appendChild(document.createTextNode(record.summary));
        if (record.status === "refused" || record.reason) {
          var reason = document.createElement("div");
          reason.className = record.status === "refused" ? "refused" : "muted";
          reason.textContent = record.reason;
          item.appendChild(reason);
        }
        if (record.status === "refused" && record.confirm) {
          // A question, not a refusal: the same sale (its key) sent again, taken.
          item.appendChild(button("Save anyway", function () {
            var body = new URLSearchParams(record.body);
            body.set("confirmed", "1");
            record.body = body.toString();
            record.status = "waiting";
            record.reason = "";
            record.confirm = false;
            keep(record).then(flush);
          }));
        }
        if (record.status === "refused") {
          item.appendChild(button("Correct", function () { correct(record); }));
          item.appendChild(button("Discard", function () { forget(record.key).then(showQueue); }));
        }
        list.appendChild(item);
      });
      details.appendChild(list);
      section.appendChild(details);
    }).catch(function () {});
  }

  function button(text, action) {
    var b = document.createElement("button");
    b.type = "button";
    b.textContent = text;
    b.addEventListener("click", action);
    return b;
  }

  // A refused sale goes back into the form, to correct and save again (under a new key).
  function correct(record) {
    if (!saleForm || record.url !== "/sales") { return forget(record.key).then(showQueue); }
    var body = new URLSearchParams(record.body);
    ["clinic", "quantity", "price", "date", "discount", "note"].forEach(function (name) {
      var field = saleForm.elements[name];
      if (field && body.has(name)) { field.value = body.get(name); }
    });
    var product = $("input[name=product][value='" + body.get("product") + "']", saleForm);
    if (product) { product.checked = true; }
    $("#more-fields").open = true;
    return forget(record.key).then(showQueue).then(function () { saleForm.scrollIntoView(); });
  }

  // Saving: sent at once when there is a network (the page then shows the sale with its Undo);
  // kept on the phone when there is none or the connection fails. Says which: "recorded",
  // "kept" or "refused" (the refusal shown by `refused`).
  function sendOrKeep(form, record, onRecorded, refused) {
    var keepIt = function () {
      return keep(record).then(function () {
        notice("Saved on this phone: it is sent when the network is back.");
        return showQueue();
      }).then(function () { return "kept"; });
    };
    if (!connection.online) { return keepIt(); }
    return send(record).then(function (result) {
      if (result.outcome === "recorded") { onRecorded(result.json); return "recorded"; }
      if (result.outcome === "refused") { refused(result); return "refused"; }
      return keepIt();
    });
  }

  if (saleForm && window.fetch && window.URLSearchParams) {
    var saving = false;
    var save = function (confirmed) {
      if (saving) { return; }  // a second tap while the first is on its way records nothing more
      saving = true;
      var data = new FormData(saleForm);
      data.set("key", newKey());  // made at the tap: every send of this sale carries it
      if (!data.get("date")) { data.set("date", localToday()); }
      if (confirmed) { data.set("confirmed", "1"); } else { data.delete("confirmed"); }
      var record = { key: data.get("key"), url: "/sales", body: new URLSearchParams(data).toString(), summary: describe(saleForm),
                     created: Date.now(), status: "waiting", reason: "" };
      sendOrKeep(saleForm, record, function (json) { location.href = "/?saved=" + json.id; }, function (result) {
        refuse(result, saleForm, function () { save(true); });
      }).then(function (outcome) {
        // Kept on the phone: the form is ready for the next sale. Refused: it stays as she typed it.
        if (outcome !== "kept") { return; }
        edited = false;  // what she typed is kept on the phone now
        $("#quantity").value = "1";
        ["discount", "note"].forEach(function (name) { if (saleForm.elements[name]) { saleForm.elements[name].value = ""; } });
      }).catch(function () {
        notice("This sale could not be kept on this phone: try again.", "error");
      }).then(function () { saving = false; });
    };
    saleForm.addEventListener("submit", function (event) {
      event.preventDefault();
      save(event.submitter && event.submitter.name === "confirmed");
    });
  }

  // Repeat: the same, under the key its button was drawn with, so a second tap is the same sale.
  all("form[action$='/repeat']").forEach(function (form) {
    form.addEventListener("submit", function (event) {
      if (!window.fetch) { return; }
      event.preventDefault();
      if (form.getAttribute("data-sending")) { return; }
      form.setAttribute("data-sending", "1");
      var data = new FormData(form);
      data.set("date", localToday());
      var item = form.closest("li");
      var record = { key: "repeat-" + data.get("key"), url: form.getAttribute("action"), body: new URLSearchParams(data).toString(),
                     summary: "Repeat: " + (item ? item.querySelector(".what").textContent.replace(/\s+/g, " ").trim() : "a sale"),
                     created: Date.now(), status: "waiting", reason: "" };
      sendOrKeep(form, record, function (json) { location.href = "/?saved=" + json.id; }, function (result) {
        refuse(result, form, null);
      }).then(function () {
        form.removeAttribute("data-sending");
      });
    });
  });

  if ($("#queue") || $("#connection")) {
    showQueue().then(flush);
    setInterval(function () { if (connection.waiting > 0) { flush(); } }, 5000);
  }

  // ---- The live dashboard: after every committed change the server pushes the page's new body,
  // rendered once for every open page; the page puts it in place without asking for anything.
  // The stream is never trusted to come back by itself: EventSource gives up for good when a retry
  // is answered with an error (a 503 while the database is away), and a connection can die without
  // a word (a phone changing networks). So the page opens it again itself, sooner at first, then
  // less often (1, 2, 4 … 30 seconds), whenever it ends, fails, or says nothing — not even the
  // server's ping, every 15 seconds — for 45 seconds; the badge says "reconnecting…" meanwhile,
  // and "live" once an event arrives again.
  var dashboard = $("#dashboard[data-live]");
  if (dashboard && window.EventSource) {
    var live = { source: null, delay: 1000, retry: null, watchdog: null };
    var reopen = function () {
      if (live.source) { live.source.close(); live.source = null; }
      clearTimeout(live.watchdog);
      connection.stream = "reconnecting";
      showConnection();
      if (live.retry) { return; }
      live.retry = setTimeout(function () { live.retry = null; open(); }, live.delay);
      live.delay = Math.min(live.delay * 2, 30000);
    };
    // Something came: the stream is live. Only an event resets the wait between tries (a stream
    // that opens and ends at once, with nothing to tell, is tried less and less often).
    var heard = function (event) {
      clearTimeout(live.watchdog);
      live.watchdog = setTimeout(reopen, 45000);
      if (event && event.type !== "open") { live.delay = 1000; }
      if (connection.stream !== "live") { connection.stream = "live"; showConnection(); }
    };
    var open = function () {
      var source = new EventSource(dashboard.getAttribute("data-live"));
      live.source = source;
      connection.stream = "reconnecting";
      source.addEventListener("open", heard);
      source.addEventListener("ping", heard);
      // Ended, refused or cut: opened again by this page, not left to EventSource.
      source.addEventListener("error", function () { if (live.source === source) { reopen(); } });
      // The first event may already differ from what was drawn: every event is applied.
      source.addEventListener("body", function (event) {
        heard(event);
        // What she unfolded stays unfolded when the body is drawn again.
        var unfolded = Array.prototype.map.call(dashboard.querySelectorAll("details[open][id]"), function (d) { return d.id; });
        dashboard.innerHTML = event.data;
        unfolded.forEach(function (id) { var d = document.getElementById(id); if (d) { d.open = true; } });
        document.body.setAttribute("data-rendered", new Date().toISOString());
        document.body.setAttribute("data-event", event.lastEventId);
      });
      live.watchdog = setTimeout(reopen, 45000);
    };
    // Back online: try at once rather than at the end of a long wait.
    window.addEventListener("online", function () {
      if (live.retry) { clearTimeout(live.retry); live.retry = null; live.delay = 1000; open(); }
    });
    open();
  }
  // ---- "Remind Glow": the note to a late clinic in her phone's share sheet (the Web Share API),
  // each period's statement attached as a CSV where the browser can share files; without it (most
  // desktops), the link's own e-mail draft. The files are fetched with the page, so that sharing
  // happens within her tap, as browsers require.
  all("a.remind[data-share-text]").forEach(function (link) {
    if (!navigator.share) { return; }
    var files = [];
    if (window.File && navigator.canShare) {
      Promise.all((link.getAttribute("data-share-files") || "").split(" ").filter(Boolean).map(function (url) {
        return fetch(url, { credentials: "same-origin" }).then(function (response) {
          if (!response.ok) { throw new Error(response.status); }
          var named = /filename="([^"]+)"/.exec(response.headers.get("Content-Disposition") || "");
          return response.blob().then(function (blob) {
            return new File([blob], named ? named[1] : "statement.csv", { type: "text/csv" });
          });
        });
      })).then(function (made) {
        if (made.length && navigator.canShare({ files: made })) { files = made; link.setAttribute("data-files-ready", ""); }
      }).catch(function () {});
    }
    link.addEventListener("click", function (event) {
      event.preventDefault();
      var note = { title: link.getAttribute("data-share-title"), text: link.getAttribute("data-share-text") };
      if (files.length) { note.files = files; }
      navigator.share(note).catch(function (error) {
        // She closed the sheet: nothing to do. Anything else: the e-mail draft.
        if (!error || error.name !== "AbortError") { window.location.href = link.href; }
      });
    });
  });
  // Settings → Notifications: this device's subscription, asked for only on her tap, with a
  // sentence of why before the browser's own question; where push cannot work, what to do instead.
  var pushDevice = $("#push-device");
  if (pushDevice) {
    var pushStatus = $("#push-status"), pushOn = $("#push-on"), pushWhy = $("#push-why");
    var say = function (text) { pushStatus.textContent = text; };
    var appleMobile = /iPhone|iPad|iPod/.test(navigator.userAgent);
    var standalone = window.matchMedia && window.matchMedia("(display-mode: standalone)").matches || navigator.standalone === true;
    var keyBytes = function (text) {
      var base64 = text.replace(/-/g, "+").replace(/_/g, "/");
      while (base64.length % 4) { base64 += "="; }
      var raw = atob(base64), bytes = new Uint8Array(raw.length);
      for (var i = 0; i < raw.length; i++) { bytes[i] = raw.charCodeAt(i); }
      return bytes;
    };
    var send = function (subscription) {
      var json = subscription.toJSON(), form = $("#push-subscribe");
      form.elements.endpoint.value = json.endpoint;
      form.elements.p256dh.value = json.keys.p256dh;
      form.elements.auth.value = json.keys.auth;
      form.submit();
    };
    if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) {
      say(appleMobile && !standalone
        ? "On an iPhone or iPad, notifications come to Commission on your home screen: tap Share, then Add to Home Screen, open Commission from there and come back to this page."
        : "This browser does not show notifications from web apps: open this page in Chrome, Edge, Firefox or Safari.");
    } else if (Notification.permission === "denied") {
      say("Notifications for this site are blocked in your browser's settings: allow them there, then come back to this page.");
    } else {
      navigator.serviceWorker.ready.then(function (registration) {
        return registration.pushManager.getSubscription();
      }).then(function (subscription) {
        // Among her devices (the server's list), this browser is told; one the server does not
        // keep for her (removed, or another account's) is sent again only on her tap.
        var listed = subscription && document.querySelector("#devices [data-endpoint='" + subscription.endpoint.replace(/'/g, "") + "']");
        if (subscription && listed && Notification.permission === "granted") {
          say("This device gets your notifications.");
          // Removing this browser also ends its subscription, so that nothing more arrives here.
          var remove = listed.querySelector("form");
          if (remove) {
            remove.addEventListener("submit", function (event) {
              event.preventDefault();
              subscription.unsubscribe().catch(function () {}).then(function () { remove.submit(); });
            });
          }
          return;
        }
        say("This device gets no notifications yet.");
        pushOn.hidden = false;
        pushWhy.hidden = false;
      }).catch(function () { say("This device gets no notifications yet."); pushOn.hidden = false; pushWhy.hidden = false; });
      pushOn.addEventListener("click", function () {
        pushOn.disabled = true;
        Notification.requestPermission().then(function (permission) {
          if (permission !== "granted") {
            pushOn.disabled = false;
            say("Notifications were not allowed. To get them, allow them for this site in your browser's settings and tap the button again.");
            return null;
          }
          say("Turning them on…");
          // A push service out of reach may leave the browser waiting: after 20 s she is told.
          var slow = setTimeout(function () {
            pushOn.disabled = false;
            say("Your browser is still waiting for its push service (is it online?). Try again in a moment.");
          }, 20000);
          return navigator.serviceWorker.ready.then(function (registration) {
            return registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(pushDevice.getAttribute("data-key")) });
          }).then(function (subscription) { clearTimeout(slow); return subscription; }, function (error) { clearTimeout(slow); throw error; });
        }).then(function (subscription) { if (subscription) { send(subscription); } }).catch(function () {
          pushOn.disabled = false;
          say("Your browser could not turn notifications on just now (is it online?). Try again in a moment.");
        });
      });
    }
  }
  // A form the server drew again refused (any page but the Sale page's, whose refusals come back
  // to the script): its sentence beside the field it is about too, that field brought to the top
  // of her screen with its label, focused; the sentence at the top stays for the rest of the page.
  (function () {
    var refusal = $("#refusal");
    var field = refusal && document.querySelector("[aria-invalid='true'][aria-describedby='refusal']");
    if (!field || !field.parentNode) { return; }
    for (var open = field.closest("details"); open; open = open.parentElement && open.parentElement.closest("details")) {
      open.open = true;
    }
    var beside = document.createElement("p");
    beside.className = "field-error";
    beside.setAttribute("aria-hidden", "true");  // read with the field already (aria-describedby)
    beside.textContent = ($("p", refusal) || refusal).textContent;
    field.parentNode.insertBefore(beside, field.nextSibling);
    var label = field.id && document.querySelector("label[for='" + field.id + "']");
    var top = refusal.getBoundingClientRect().bottom <= window.innerHeight * 0.25 && beside.getBoundingClientRect().bottom <= window.innerHeight * 0.8;
    if (!top) { (label || field).scrollIntoView({ block: "start" }); } else { window.scrollTo(0, 0); }
    if (field.focus) { field.focus({ preventScroll: true }); }
  })();
  showConnection();
  // Said again after the page loaded itself for the server's new release (reloadIfMoved).
  try {
    var again = window.sessionStorage && sessionStorage.getItem("commission-notice");
    if (again && $("#main")) { sessionStorage.removeItem("commission-notice"); notice(again); }
  } catch (e) {}
  probe();
})();
