#!/usr/bin/env python3
"""Reads a chart's layout back from headless Chromium and fails on what a reader could not read.

Usage: tests/tool/chart_layout.py chart.svg
The SVG is inlined into a page whose script asks the browser for every text's box and every
marked element's topmost neighbour, and writes them into the page, which Chromium dumps.
Fails (exit 1, one line per problem) on:
  - text that overlaps other text (more than 1 px each way),
  - text outside the picture (clipped),
  - a marked element (class "marked") hidden: at its centre another element is on top,
  - a legend (class "legend") over a data point's centre (class "point").
Exit 0: nothing found; 2: no chromium (skipped).
"""
import html
import json
import os
import re
import subprocess
import sys
import tempfile

SCRIPT = r"""
<script>
(function () {
  const svg = document.querySelector('svg');
  const page = svg.getBoundingClientRect();
  const problems = [];
  const box = (e) => { const r = e.getBoundingClientRect();
                       return {x0: r.left, y0: r.top, x1: r.right, y1: r.bottom}; };
  const name = (e) => {
    const t = e.textContent.trim().replace(/\s+/g, ' ');
    const c = e.getAttribute('class');
    return e.tagName + (c ? '.' + c.split(/\s+/).join('.') : '') + (t ? ' "' + t.slice(0, 40) + '"' : '');
  };
  const f = (x) => x.toFixed(1);
  const texts = [...svg.querySelectorAll('text')].filter((t) => t.textContent.trim() !== '');
  const boxes = texts.map(box);
  texts.forEach((t, i) => {
    const b = boxes[i];
    if (b.x0 < page.left - 0.5 || b.y0 < page.top - 0.5 || b.x1 > page.right + 0.5 ||
        b.y1 > page.bottom + 0.5)
      problems.push('clipped: ' + name(t) + ' spans x ' + f(b.x0) + '-' + f(b.x1) + ', y ' +
                    f(b.y0) + '-' + f(b.y1) + ' of a ' + f(page.width) + ' x ' +
                    f(page.height) + ' picture');
    for (let j = i + 1; j < texts.length; ++j) {
      const c = boxes[j];
      const w = Math.min(b.x1, c.x1) - Math.max(b.x0, c.x0);
      const h = Math.min(b.y1, c.y1) - Math.max(b.y0, c.y0);
      if (w > 1 && h > 1)
        problems.push('overlap: ' + name(t) + ' and ' + name(texts[j]) + ' share ' + f(w) +
                      ' x ' + f(h) + ' px');
    }
  });
  const marked = [...svg.querySelectorAll('.marked')].filter((e) => e.tagName !== 'text');
  for (const m of marked) {
    const b = box(m);
    const x = (b.x0 + b.x1) / 2, y = (b.y0 + b.y1) / 2;
    const top = document.elementFromPoint(x, y);
    if (top !== m && !m.contains(top))
      problems.push('hidden: ' + name(m) + ' at (' + f(x) + ', ' + f(y) + ') is under ' +
                    (top ? name(top) : 'nothing'));
  }
  for (const legend of svg.querySelectorAll('.legend')) {
    const l = box(legend);
    let covered = 0, first = null;
    for (const p of svg.querySelectorAll('.point')) {
      if (legend.contains(p)) continue;
      const b = box(p);
      const x = (b.x0 + b.x1) / 2, y = (b.y0 + b.y1) / 2;
      if (x > l.x0 && x < l.x1 && y > l.y0 && y < l.y1) { ++covered; first = first || p; }
    }
    if (covered)
      problems.push('covered: the legend spans x ' + f(l.x0) + '-' + f(l.x1) + ', y ' +
                    f(l.y0) + '-' + f(l.y1) + ' over ' + covered + ' data point(s), first ' +
                    name(first));
  }
  const out = document.createElement('pre');
  out.id = 'shardplan-layout';
  if (window.innerWidth < page.right || window.innerHeight < page.bottom)
    problems.push('the browser window (' + window.innerWidth + ' x ' + window.innerHeight +
                  ') does not show the whole picture; nothing under it can be checked');
  out.textContent = JSON.stringify({texts: texts.length, marked: marked.length, problems});
  document.body.appendChild(out);
})();
</script>
"""


def main():
    if len(sys.argv) != 2:
        print("usage: chart_layout.py chart.svg", file=sys.stderr)
        return 2
    chromium = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    if not os.access(chromium, os.X_OK):
        print(f"chart_layout: {chromium} not found (apt-get install -y chromium); skipped")
        return 2
    with open(sys.argv[1], encoding="utf-8") as f:
        svg = f.read()
    svg = re.sub(r"^\s*<\?xml[^>]*\?>", "", svg)
    size = re.search(r'<svg[^>]*\swidth="([0-9.]+)"[^>]*\sheight="([0-9.]+)"', svg)
    if not size:
        print("chart_layout: the SVG states no width and height")
        return 1
    width, height = (int(float(v)) + 1 for v in size.groups())
    with tempfile.TemporaryDirectory() as work:
        page = os.path.join(work, "page.html")
        with open(page, "w", encoding="utf-8") as f:
            f.write('<!DOCTYPE html><html><head><meta charset="utf-8"><style>'
                    "html,body{margin:0;padding:0}svg{display:block}</style></head><body>")
            f.write(svg)
            f.write(SCRIPT)
            f.write("</body></html>")
        run = subprocess.run(
            [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
             "--disable-background-networking", "--disable-component-update", "--disable-sync",
             f"--user-data-dir={os.path.join(work, 'profile')}", "--hide-scrollbars",
             # Headless Chromium's window holds the page and some browser rows.
             f"--window-size={width + 100},{height + 400}", "--dump-dom", "file://" + page],
            capture_output=True, text=True, timeout=120)
    found = re.search(r'<pre id="shardplan-layout">(.*?)</pre>', run.stdout, re.S)
    if not found:
        print("chart_layout: Chromium returned no layout (exit %d): %s" %
              (run.returncode, run.stderr.strip()[-400:]))
        return 1
    layout = json.loads(html.unescape(found.group(1)))
    for p in layout["problems"]:
        print("chart_layout: " + p)
    print("chart_layout: %d texts, %d marked elements, %d problem(s)" %
          (layout["texts"], layout["marked"], len(layout["problems"])))
    return 1 if layout["problems"] else 0


if __name__ == "__main__":
    sys.exit(main())
