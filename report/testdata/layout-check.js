// Evaluated by TestHTMLInChromium in a rendered report over the DevTools
// protocol (the report itself has no scripts). It measures the laid-out
// page and returns its verdict as a JSON string.
(function () {
  var root = document.documentElement;
  var width = root.clientWidth;
  var problems = [];
  function describe(el) {
    var s = el.tagName.toLowerCase();
    if (el.id) s += "#" + el.id;
    if (el.className && typeof el.className === "string") s += "." + el.className.trim().split(/\s+/).join(".");
    var text = (el.textContent || "").replace(/\s+/g, " ").trim();
    if (text.length > 60) text = text.slice(0, 60) + "…";
    return s + (text ? " \"" + text + "\"" : "");
  }
  function scrolls(el) {
    var o = getComputedStyle(el).overflowX;
    return o === "auto" || o === "scroll";
  }
  // Page-level horizontal overflow.
  var pageOverflow = Math.max(root.scrollWidth, document.body.scrollWidth) - width;
  if (pageOverflow > 0) problems.push({kind: "page overflows the viewport", by: pageOverflow, el: "html"});
  var all = document.body.querySelectorAll("*");
  for (var i = 0; i < all.length; i++) {
    var el = all[i];
    if (el.closest("svg")) continue;
    var cs = getComputedStyle(el);
    if (cs.display === "none" || cs.display === "inline" || cs.display === "contents") continue;
    var over = el.scrollWidth - el.clientWidth;
    if (over > 1) {
      if (scrolls(el)) {
        // Something a reader must scroll sideways to see. The page lets a
        // heat map with many columns scroll on a phone; the reports checked
        // here have none that wide, so nothing may scroll at either width.
        problems.push({kind: "hidden behind horizontal scrolling", by: over, el: describe(el)});
      } else if (cs.overflowX === "hidden" || cs.overflowX === "clip" || cs.textOverflow === "ellipsis") {
        problems.push({kind: "clipped", by: over, el: describe(el)});
      } else {
        problems.push({kind: "spills out of its box", by: over, el: describe(el)});
      }
    }
    // Off the right edge of the page without a scrolling box around it.
    var r = el.getBoundingClientRect();
    if (r.width > 0 && r.right > width + 1) {
      var p = el.parentElement, inScroller = false;
      for (; p && p !== document.body; p = p.parentElement) if (scrolls(p)) { inScroller = true; break; }
      if (!inScroller) problems.push({kind: "off the right edge", by: Math.round(r.right - width), el: describe(el)});
    }
  }
  // Labels: no label may overlap the bar beside it.
  var labels = document.querySelectorAll(".bar-row .label");
  for (var j = 0; j < labels.length; j++) {
    var lr = labels[j].getBoundingClientRect();
    var bar = labels[j].parentElement.querySelector("svg");
    if (!bar) continue;
    var br = bar.getBoundingClientRect();
    var overlap = Math.min(lr.right, br.right) - Math.max(lr.left, br.left) > 1 &&
      Math.min(lr.bottom, br.bottom) - Math.max(lr.top, br.top) > 1;
    if (overlap) problems.push({kind: "label overlaps its bar", by: 0, el: describe(labels[j])});
    if (br.width < 40) problems.push({kind: "bar too narrow to read", by: Math.round(br.width), el: describe(labels[j])});
  }
  // Any SVG text must stay inside its drawing.
  var texts = document.querySelectorAll("svg text");
  for (var k = 0; k < texts.length; k++) {
    var tr = texts[k].getBoundingClientRect(), sr = texts[k].ownerSVGElement.getBoundingClientRect();
    if (tr.left < sr.left - 1 || tr.right > sr.right + 1) problems.push({kind: "SVG text clipped", by: 0, el: describe(texts[k])});
  }
  return JSON.stringify({
    width: width,
    height: Math.max(root.scrollHeight, document.body.scrollHeight),
    elements: all.length,
    labels: labels.length,
    problems: problems.slice(0, 40),
    more: Math.max(0, problems.length - 40)
  });
})();
