#!/usr/bin/env python3
"""Opens pages of a tlparse report in headless Chromium and checks the whole output folder.

usage: check_report.py REPORT_DIR [PAGE ...]
  Every PAGE (relative to REPORT_DIR; default: index.html and the first compilation_metrics page)
  is loaded by `chromium --headless`; any console message (errors, uncaught exceptions, failed
  loads), a failing exit of Chromium, or a rendered page missing a heading of its file fails
  the check. Then every local href/src of every .html file in REPORT_DIR must resolve
  to a file, and no page may reference anything outside the folder over the network (the report
  is offline). Exit 0 when all holds, 1 otherwise, printing each problem.
"""
import html.parser
import os
import subprocess
import sys
import urllib.parse


class LinkCollector(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.links = []
        self.base = None

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if tag == "base" and name == "href":
                self.base = value
            elif name in ("href", "src") and value is not None:
                self.links.append((tag, value))


class HeadingCollector(html.parser.HTMLParser):
    """The text of every <h1>..<h3> of a page, as its source writes them."""

    def __init__(self):
        super().__init__()
        self.headings = []
        self.current = None

    def handle_starttag(self, tag, attrs):
        if tag in ("h1", "h2", "h3"):
            self.current = ""

    def handle_data(self, data):
        if self.current is not None:
            self.current += data

    def handle_endtag(self, tag):
        if tag in ("h1", "h2", "h3") and self.current is not None:
            if self.current.strip():
                self.headings.append(self.current.strip())
            self.current = None


def chromium_problems(page):
    """What went wrong opening `page`: console messages, Chromium's failure, or a rendered page
    that lacks the headings the file has (a blank or error page)."""
    result = subprocess.run(
        ["chromium", "--headless=new", "--no-sandbox", "--disable-gpu", "--enable-logging=stderr",
         "--v=0", "--dump-dom", "file://" + os.path.abspath(page)],
        capture_output=True, text=True, timeout=120)
    problems = ["console: " + line for line in result.stderr.splitlines() if ":CONSOLE" in line]
    if result.returncode != 0:
        problems.append("chromium exited with status %d" % result.returncode)
    source = HeadingCollector()
    with open(page, encoding="utf-8") as f:
        source.feed(f.read())
    rendered = HeadingCollector()
    rendered.feed(result.stdout)
    if not source.headings and not result.stdout.strip():
        problems.append("chromium rendered nothing")
    for heading in source.headings:
        if heading not in rendered.headings:
            problems.append("heading %r is not in the rendered page" % heading)
    return problems


def broken_links(report_dir):
    problems = []
    for root, _, files in os.walk(report_dir):
        for name in files:
            if not name.endswith(".html"):
                continue
            path = os.path.join(root, name)
            collector = LinkCollector()
            with open(path, encoding="utf-8") as f:
                collector.feed(f.read())
            base_dir = root
            if collector.base is not None:
                base_dir = os.path.normpath(os.path.join(root, collector.base))
            for tag, link in collector.links:
                parsed = urllib.parse.urlparse(link)
                if parsed.scheme in ("http", "https"):
                    if tag in ("script", "link", "img", "iframe"):
                        problems.append(f"{path}: <{tag}> loads {link} from the network")
                    continue
                if parsed.scheme or link.startswith("#") or not parsed.path:
                    continue
                target = os.path.normpath(os.path.join(base_dir, urllib.parse.unquote(parsed.path)))
                if not os.path.isfile(target):
                    problems.append(f"{path}: <{tag}> link {link} does not resolve to a file")
    return problems


def main():
    report_dir = sys.argv[1]
    pages = sys.argv[2:]
    if not pages:
        pages = ["index.html"]
        for root, _, files in sorted(os.walk(report_dir)):
            metrics = sorted(f for f in files if f.startswith("compilation_metrics"))
            if metrics:
                pages.append(os.path.relpath(os.path.join(root, metrics[0]), report_dir))
                break
    problems = []
    for page in pages:
        for problem in chromium_problems(os.path.join(report_dir, page)):
            problems.append(f"{page}: {problem}")
    problems += broken_links(report_dir)
    for problem in problems:
        print(problem)
    print(f"browser check: {len(pages)} pages opened, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
