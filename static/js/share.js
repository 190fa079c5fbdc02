// The result card (templates/games/_result_card.html): "Share the result" hands the PNG itself to the
// phone's share sheet (the family chat), where the browser can share files. navigator.share exists only
// in a secure context: over plain HTTP on a club's LAN the button stays hidden and the download links
// do the job. The picture is fetched before the tap: a share must start within the tap itself.
(function () {
  var files = new WeakMap();

  function prepare(button) {
    if (button.dataset.prepared) return;
    button.dataset.prepared = "1";
    if (!window.isSecureContext || !navigator.canShare || !navigator.share || typeof File !== "function") return;
    fetch(button.dataset.shareCard, { credentials: "same-origin" })
      .then(function (response) { return response.ok ? response.blob() : null; })
      .then(function (blob) {
        if (!blob) return;
        var file = new File([blob], button.dataset.shareName, { type: "image/png" });
        if (!navigator.canShare({ files: [file] })) return;
        files.set(button, file);
        button.hidden = false;
      })
      .catch(function () { /* offline or refused: the download links stay */ });
  }

  function scan(root) {
    if (root && root.querySelectorAll) root.querySelectorAll("[data-share-card]").forEach(prepare);
  }

  document.addEventListener("DOMContentLoaded", function () { scan(document); });
  document.addEventListener("htmx:load", function (event) { scan(event.detail.elt.parentNode || event.detail.elt); });
  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-share-card]");
    if (!button || !files.has(button)) return;
    navigator.share({ files: [files.get(button)], title: button.dataset.shareTitle, text: button.dataset.shareText })
      .catch(function () { /* closed without sharing: nothing to say */ });
  });
})();
