#!/usr/bin/env python3
"""Parses feeds with feedparser (RSS, Atom) and jsonfeed-util (JSON Feed, which no feedparser
release reads): the independent side of FeedComparisonTests.

usage: parse.py URL...   prints one JSON object per entry: url (of the feed), index, id, title
(as plain text: tags removed, references decoded, white space collapsed; an Atom title of
type "text" is text already and only has its white space collapsed; the summary's when the entry
has no title), link, date (Unix seconds of published, else updated; null when neither).
"""
import calendar
import datetime
import html.parser
import json
import sys
import urllib.request

import feedparser
import jsonfeed


class Text(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.parts = []

    def handle_data(self, data):
        self.parts.append(data)


def plain(markup):
    parser = Text()
    parser.feed(markup)
    parser.close()
    return " ".join("".join(parser.parts).split())


def json_feed(url):
    with urllib.request.urlopen(url) as answer:
        feed = jsonfeed.Feed.parse_string(answer.read().decode("utf-8"))
    for index, item in enumerate(feed.items):
        when = item.date_published or item.date_modified
        title = item.title if item.title is not None else (item.content_text or plain(item.content_html or ""))
        print(json.dumps({
            "url": url,
            "index": index,
            "id": item.id,
            "title": " ".join(title.split()),
            "link": item.url or item.external_url,
            "date": int(datetime.datetime.fromisoformat(when).timestamp()) if when else None,
        }, sort_keys=True))


def main():
    for url in sys.argv[1:]:
        if url.endswith(".json"):
            json_feed(url)
            continue
        parsed = feedparser.parse(url)
        if parsed.bozo:
            print("bozo %s: %s" % (url, parsed.bozo_exception), file=sys.stderr)
        for index, entry in enumerate(parsed.entries):
            when = entry.get("published_parsed") or entry.get("updated_parsed")
            title = entry.get("title")
            kind = entry.get("title_detail", {}).get("type")
            if title is None:
                title = entry.get("summary", "")
                kind = entry.get("summary_detail", {}).get("type")
            # An Atom text construct of type "text" is text, not markup: only its white space
            # is collapsed; everything else feedparser gives as (X)HTML.
            text = " ".join(title.split()) if kind == "text/plain" and parsed.version.startswith("atom") else plain(title)
            print(json.dumps({
                "url": url,
                "index": index,
                "id": entry.get("id"),
                "title": text,
                "link": entry.get("link"),
                "date": calendar.timegm(when) if when else None,
            }, sort_keys=True))


if __name__ == "__main__":
    main()
