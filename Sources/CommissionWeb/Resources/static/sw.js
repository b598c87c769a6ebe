// Commission's service worker: the app shell and the last copy of the entry page and the dashboard,
// so that the app opens with no network. Sales saved meanwhile wait in the page's own queue
// (app.js, IndexedDB); nothing here sends or changes anything. Her reminders (Web Push) are shown
// here, and a tap on one opens the page it names.
"use strict";
var VERSION = "__VERSION__";  // the server writes a digest of the static files here
var SHELL = "commission-shell-" + VERSION;
var PAGES = "commission-pages";
var SHELL_FILES = ["/static/app.css", "/static/app.js", "/static/icon.svg", "/static/icon-192.png", "/favicon.ico", "/manifest.webmanifest"];
// The pages kept for use offline: quick entry and the dashboard, as last seen.
var KEPT = ["/", "/dashboard"];

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(SHELL).then(function (cache) { return cache.addAll(SHELL_FILES); }).then(function () { return self.skipWaiting(); }));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (keys) {
    return Promise.all(keys.filter(function (key) { return key.indexOf("commission-shell-") === 0 && key !== SHELL; })
      .map(function (key) { return caches.delete(key); }));
  }).then(function () { return self.clients.claim(); }));
});

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") { return; }
  var url = new URL(request.url);
  if (url.origin !== self.location.origin || url.pathname.indexOf("/api/") === 0 || url.pathname === "/events") { return; }
  if (request.mode === "navigate") {
    event.respondWith(page(request, url));
  } else if (SHELL_FILES.indexOf(url.pathname) >= 0) {
    // The network first, so that a new version is seen at once; the shell when there is none.
    event.respondWith(fetch(request).catch(function () { return caches.match(request, { cacheName: SHELL }); }));
  }
});

function page(request, url) {
  return fetch(request).then(function (response) {
    var kept = KEPT.indexOf(url.pathname) >= 0 && !url.search;
    if (kept && response.ok && !response.redirected && (response.headers.get("Content-Type") || "").indexOf("text/html") === 0) {
      var copy = response.clone();
      caches.open(PAGES).then(function (cache) { cache.put(url.pathname, copy); });
    }
    return response;
  }).catch(function () {
    // No network: the last copy of this page (or of quick entry), which says it is offline and since when.
    var key = KEPT.indexOf(url.pathname) >= 0 ? url.pathname : "/";
    return caches.match(key, { cacheName: PAGES }).then(function (cached) {
      return cached || new Response("<!doctype html><meta name=viewport content='width=device-width'><title>Offline · Commission</title>" +
        "<p style='font:16px system-ui;padding:1rem'>No network, and this page was not kept for use offline. " +
        "<a href='/'>Quick entry</a> works offline once you have opened it with a network.</p>",
        { status: 503, headers: { "Content-Type": "text/html; charset=utf-8" } });
    });
  });
}

// Her reminders (Web Push): shown with the server's words; a newer one of the same kind (its tag)
// replaces the older. A tap opens the page it names, in the app's window if one is open.
self.addEventListener("push", function (event) {
  var message = {};
  try { message = event.data ? event.data.json() : {}; } catch (e) { message = { body: event.data ? event.data.text() : "" }; }
  event.waitUntil(self.registration.showNotification(message.title || "Commission", {
    body: message.body || "",
    tag: message.tag || "commission",
    icon: "/static/icon-192.png",
    badge: "/static/icon-192.png",
    data: { url: message.url || "/" }
  }));
});

self.addEventListener("notificationclick", function (event) {
  event.notification.close();
  var target = new URL((event.notification.data && event.notification.data.url) || "/", self.location.origin);
  // Only a page of the app itself is opened.
  if (target.origin !== self.location.origin) { target = new URL("/", self.location.origin); }
  event.waitUntil(self.clients.matchAll({ type: "window", includeUncontrolled: true }).then(function (windows) {
    for (var i = 0; i < windows.length; i++) {
      if (new URL(windows[i].url).origin === self.location.origin && "navigate" in windows[i]) {
        return windows[i].focus().then(function (client) { return client.navigate(target.href); });
      }
    }
    return self.clients.openWindow(target.href);
  }));
});
