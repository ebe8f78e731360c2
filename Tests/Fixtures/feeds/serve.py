#!/usr/bin/env python3
"""A small HTTP server for the feed tests: serves the files of DIR on 127.0.0.1 with an ETag and
a Last-Modified, answers conditional GETs with 304, and logs each request on stdout.

usage: serve.py [--no-validators] [--tls CERT KEY] DIR
       prints "PORT <n>" once listening, then one line per request:
       "<path> if-none-match=<...> if-modified-since=<...> -> <status>"
       A file NAME.content-type beside NAME gives its Content-Type (e.g. with a charset).
       A file NAME.redirect (instead of NAME) answers NAME with a 301 to the path it holds, or
       with another status when it holds one first ("307 /path").
       A file NAME.trickle beside NAME sends NAME one byte every 0.2 s (a server that hangs
       mid-answer); its log line "<path> trickling" comes when it starts, and "<path> trickle,
       client left after <seconds> s" when the client closes the connection.
       A file NAME.gzip beside NAME sends NAME compressed, with Content-Encoding: gzip.
       A file NAME.cut beside NAME sends the Content-Length of NAME but only its first half,
       then closes the connection (a server that dies mid-answer).
       A file NAME.endless (instead of NAME) answers NAME with an endless body (no
       Content-Length), 16 KiB every 10 ms, until the client goes; the log line then says
       "-> 200 endless, client left after <bytes>".
       A file NAME.silent (instead of NAME) reads the request and answers nothing until the
       client goes (a server that accepted the request and hangs); its log line
       "<path> silent" comes when the request was read, "<path> silent, client left" after.
       --no-validators: no ETag or Last-Modified, every GET answered 200 with the whole file
       (a server that does not do conditional requests).
       --tls CERT KEY: speak https with the certificate chain in file CERT and its key in KEY.
"""
import email.utils
import gzip
import hashlib
import http.server
import os
import ssl
import sys
import time


class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        root = self.server.root
        path = os.path.normpath(os.path.join(root, self.path.split("?", 1)[0].lstrip("/")))
        inm = self.headers.get("If-None-Match")
        ims = self.headers.get("If-Modified-Since")
        if path.startswith(root) and os.path.isfile(path + ".redirect"):
            with open(path + ".redirect") as handle:
                words = handle.read().split()
            status = int(words[0]) if len(words) > 1 else 301
            self.answer(status, b"", inm, ims, {"Location": words[-1]})
            return
        if path.startswith(root) and os.path.isfile(path + ".silent"):
            self.silent()
            return
        if path.startswith(root) and os.path.isfile(path + ".endless"):
            self.endless()
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
            if os.path.isfile(path + ".gzip"):
                body = gzip.compress(body)
                headers["Content-Encoding"] = "gzip"
            trickle = os.path.isfile(path + ".trickle")
            cut = os.path.isfile(path + ".cut")
            self.answer(200, body, inm, ims, dict(headers, **{"Content-Type": kind}), trickle, cut)

    def silent(self):
        print("%s silent" % self.path, flush=True)
        try:
            while self.rfile.read(1):
                pass
        except OSError:
            pass
        self.close_connection = True
        print("%s silent, client left" % self.path, flush=True)

    def endless(self):
        self.send_response(200)
        self.send_header("Content-Type", "application/xml")
        self.end_headers()
        sent = 0
        chunk = b"<!-- " + b"x" * (16384 - 9) + b" -->"
        try:
            self.wfile.write(b'<?xml version="1.0"?><rss version="2.0"><channel><title>Endless</title>')
            while True:
                self.wfile.write(chunk)
                self.wfile.flush()
                sent += len(chunk)
                time.sleep(0.01)
        except OSError:
            pass
        self.close_connection = True
        print("%s endless, client left after %d" % (self.path, sent), flush=True)

    def answer(self, status, body, inm, ims, headers=None, trickle=False, cut=False):
        self.send_response(status)
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        if status != 304:
            self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if status != 304 and trickle:
            print("%s trickling" % self.path, flush=True)
            began = time.monotonic()
            try:
                for byte in body:
                    self.wfile.write(bytes([byte]))
                    self.wfile.flush()
                    time.sleep(0.2)
            except OSError:
                self.close_connection = True
                print("%s trickle, client left after %.1f s" % (self.path, time.monotonic() - began), flush=True)
                return
        elif status != 304 and cut:
            self.wfile.write(body[:len(body) // 2])
            self.wfile.flush()
            self.close_connection = True
        elif status != 304:
            self.wfile.write(body)
        print("%s if-none-match=%s if-modified-since=%s -> %d" % (self.path, inm, ims, status), flush=True)

    def log_message(self, *args):
        pass


def main():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    arguments = sys.argv[1:]
    server.no_validators = "--no-validators" in arguments
    if "--tls" in arguments:
        at = arguments.index("--tls")
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(arguments[at + 1], arguments[at + 2])
        server.socket = context.wrap_socket(server.socket, server_side=True)
        del arguments[at:at + 3]
    server.root = os.path.realpath([a for a in arguments if not a.startswith("--")][0])
    print("PORT %d" % server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
