// Commission's only script: small enhancements; every form works without it.
(function () {
  "use strict";
  function $(selector, root) { return (root || document).querySelector(selector); }
  function all(selector, root) { return Array.prototype.slice.call((root || document).querySelectorAll(selector)); }

  // Quantity stepper.
  all("[data-step]").forEach(function (button) {
    button.addEventListener("click", function () {
      var input = $("#quantity");
      var next = (parseInt(input.value, 10) || 0) + parseInt(button.getAttribute("data-step"), 10);
      if (next === 0) { next += parseInt(button.getAttribute("data-step"), 10); }
      input.value = String(next);
    });
  });

  // Choosing a product puts its price in the price field, exactly as the server wrote it.
  all("input[name=product]").forEach(function (radio) {
    radio.addEventListener("change", function () {
      var price = $("#price");
      if (price) { price.value = radio.getAttribute("data-price"); }
    });
  });

  // Product search.
  var search = $("#product-search");
  if (search) {
    search.addEventListener("input", function () {
      var text = search.value.trim().toLowerCase();
      all("label.product").forEach(function (label) {
        label.hidden = text !== "" && label.textContent.toLowerCase().indexOf(text) < 0;
      });
    });
  }

  // A chosen CSV file is read into the text area, so the form posts it as text.
  var file = $("#csv-file");
  if (file && window.FileReader) {
    file.addEventListener("change", function () {
      if (!file.files.length) { return; }
      var reader = new FileReader();
      reader.onload = function () { $("#csv").value = reader.result; };
      reader.readAsText(file.files[0]);
    });
  }

  // A live dashboard: the server pushes an event after every committed change; we fetch the new body.
  var dashboard = $("#dashboard[data-live]");
  if (dashboard && window.EventSource) {
    var refreshing = false, again = false;
    function refresh() {
      if (refreshing) { again = true; return; }
      refreshing = true;
      fetch("/dashboard?fragment=1", { credentials: "same-origin" })
        .then(function (response) { return response.ok ? response.text() : Promise.reject(response.status); })
        .then(function (html) { dashboard.innerHTML = html; })
        .catch(function () {})
        .then(function () { refreshing = false; if (again) { again = false; refresh(); } });
    }
    var source = new EventSource(dashboard.getAttribute("data-live"));
    // The first event may already differ from what was rendered: every event refreshes.
    source.addEventListener("dashboard", refresh);
  }
})();
