// A page that answers a form (a refused POST, or a one-time answer such as a new token) is
// shown at the form's address instead of the POST's: a reload then fetches the form's page
// instead of sending the form again, and the address can be shared. Without scripts the
// page is the same; only the address bar keeps the POST's path.
(function () {
  var script = document.currentScript;
  var address = script && script.getAttribute("data-address");
  if (address && address.charAt(0) === "/" && window.history && window.history.replaceState) {
    window.history.replaceState(null, "", address);
  }
})();
