#!/usr/bin/env python3
"""A small HTTP server for the feed tests: serves the files of DIR on 127.0.0.1 with an ETag and
a Last-Modified, answers conditional GETs with 304, and logs each request on stdout.

usage: serve.py [--no-validators] DIR
       prints "PORT <n>" once listening, then one line per request:
       "<path> if-none-match=<...> if-modified-since=<...> -> <status>"
       A file NAME.content-type beside NAME gives its Content-Type (e.g. with a charset).
       A file NAME.redirect (instead of NAME) answers NAME with a 301 to the path it holds.
       --no-validators: no ETag or Last-Modified, every GET answered 200 with the whole file
       (a server that does not do conditional requests).
"""
import email.utils
import hashlib
import http.server
import os
import sys


class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        root = self.server.root
        path = os.path.normpath(os.path.join(root, self.path.split("?", 1)[0].lstrip("/")))
        inm = self.headers.get("If-None-Match")
        ims = self.headers.get("If-Modified-Since")
        if path.startswith(root) and os.path.isfile(path + ".redirect"):
            with open(path + ".redirect") as handle:
                self.answer(301, b"", inm, ims, {"Location": handle.read().strip()})
            return
        if not path.startswith(root) or not os.path.isfile(path):
            self.answer(404, b"not found", inm, ims)
            return
        with open(path, "rb") as handle:
            body = handle.read()
        etag = '"%s"' % hashlib.sha1(body).hexdigest()[:16]
        modified = int(os.stat(path).st_mtime)
        last_modified = email.utils.formatdate(modified, usegmt=True)
        if inm is not None:
            fresh = inm == etag
        elif ims is not None:
            parsed = email.utils.parsedate_to_datetime(ims)
            fresh = parsed is not None and int(parsed.timestamp()) >= modified
        else:
            fresh = False
        headers = {"ETag": etag, "Last-Modified": last_modified}
        if self.server.no_validators:
            headers, fresh = {}, False
        if fresh:
            self.answer(304, b"", inm, ims, headers)
        else:
            kind = "application/feed+json" if path.endswith(".json") else "application/xml"
            if os.path.isfile(path + ".content-type"):
                with open(path + ".content-type") as handle:
                    kind = handle.read().strip()
            self.answer(200, body, inm, ims, dict(headers, **{"Content-Type": kind}))

    def answer(self, status, body, inm, ims, headers=None):
        self.send_response(status)
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        if status != 304:
            self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if status != 304:
            self.wfile.write(body)
        print("%s if-none-match=%s if-modified-since=%s -> %d" % (self.path, inm, ims, status), flush=True)

    def log_message(self, *args):
        pass


def main():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    arguments = sys.argv[1:]
    server.no_validators = "--no-validators" in arguments
    server.root = os.path.realpath([a for a in arguments if not a.startswith("--")][0])
    print("PORT %d" % server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
