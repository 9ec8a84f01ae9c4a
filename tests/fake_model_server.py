#!/usr/bin/env python3
"""A fake model server for the browser tests: a loopback peer that speaks the
Anthropic Messages API and the OpenAI-compatible Chat Completions API, with
CORS, streaming (SSE) and non-streaming replies, scripted tool use, and fault
modes. Python 3 standard library only.

    python3 tests/fake_model_server.py [--port 8787] [--port-file F]
                                       [--max-lifetime 1800] [--log F]
    python3 tests/fake_model_server.py --self-test

Endpoints (any of them may be behind the path prefixes described below):

    POST /v1/messages            Anthropic Messages (base URL http://H:P)
    POST /v1/chat/completions    Chat Completions   (base URL http://H:P/v1)
    GET  /__health               {"ok": true, ...}
    GET  /__requests[?scope=S]   every request received (JSON array)
    POST /__reset[?scope=S]      forget requests and fault counters

Path prefixes, in any order, before `/v1/...`:

    /scope/<S>     tags the request with scope S (tests use one scope each,
                   so they never see each other's requests or fault counters)
    /fault/<mode>  selects a fault mode (so does a model name `fault-<mode>`)

Fault modes (the first-time counters are per scope):

    429              429 with `retry-after: 1` the first time, then success
    529              529 (overloaded) the first time, then success
    401              401 (the key was refused), always
    401-echo         401 whose message repeats the key it was sent (as some
                     proxies do), always
    malformed        200 with a body that cannot be parsed
    midstream-error  streaming: some text, then an `error` event;
                     non-streaming: the connection drops in the middle of the body
    slow             waits up to --slow-seconds (default 20) in small steps,
                     giving up as soon as the client disconnects (Stop), then
                     answers normally
    cached           answers normally, its usage reporting prompt-cache
                     traffic: Anthropic `cache_read_input_tokens` 2048 and
                     `cache_creation_input_tokens` 310 (in `message_start`
                     when streamed); OpenAI `prompt_tokens_details.
                     cached_tokens` 2048, counted in `prompt_tokens` as
                     the API counts them
    no-usage         answers normally without any usage: no `usage` object
                     (Anthropic, both forms; OpenAI's body) and no final
                     usage chunk (OpenAI streamed)

Scripted replies, read from the conversation (never a canned transcript):

    lead (system prompt "You are a team lead ...") whose first prompt says
    "spawn NAME ... shutdown": spawn_teammate, then shutdown_request, then
    end_turn text. Any other lead prompt: end_turn text.

    teammate (system prompt "You are 'NAME', ...") that has a
    shutdown_request message in its conversation it has not answered:
    shutdown_response with approve=true. Otherwise: end_turn text.

    A protocol file's own protocols, read from the system prompt's
    sentences ("The status protocol: ask with ask_status, ..."): a lead
    that has spawned its teammate asks it once with each protocol's
    request tool before any shutdown_request; a teammate answers each
    request of such a protocol (its message type `<protocol>_...`, or the
    only one it answers) with that protocol's answer tool, approve=true,
    in the order the requests came. Required fields the tool's schema
    lists are filled deterministically: an enum's first value, "x", 1,
    true.

The server also checks each request the way the real APIs do (required
headers and fields, tool schemas, tool results right after their calls) and
answers a faulty one with a 400 naming the problem; the record of such a
request carries `rejected`.

It stops by itself after --max-lifetime seconds, on SIGTERM and on SIGINT.
"""

import argparse
import json
import os
import re
import select
import signal
import socket
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

ALLOWED_HEADERS = (
    "content-type, x-api-key, anthropic-version, "
    "anthropic-dangerous-direct-browser-access, authorization"
)
EXPOSED_HEADERS = "retry-after, retry-after-ms, request-id, x-request-id"
FAULT_MODES = ("429", "529", "401", "401-echo", "malformed", "midstream-error", "slow", "cached", "no-usage")
# What the `cached` mode reports as read from and written to the prompt cache.
CACHE_READ = 2048
CACHE_WRITE = 310
MAX_BODY = 8 * 1024 * 1024
SLOW_STEP = 0.05
TOOL_NAME = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")

STOPPING = threading.Event()


class BadRequest(Exception):
    """A request the real API would refuse with a 400."""


class State:
    """Everything the handlers share, behind one lock."""

    def __init__(self, slow_seconds):
        self.lock = threading.Lock()
        self.requests = []
        self.fault_counts = {}
        self.next_seq = 1
        self.next_id = 1
        self.started = time.time()
        self.slow_seconds = slow_seconds

    def record(self, rec):
        with self.lock:
            rec["seq"] = self.next_seq
            self.next_seq += 1
            self.requests.append(rec)
        return rec

    def update(self, rec, **fields):
        with self.lock:
            rec.update(fields)

    def snapshot(self, scope):
        with self.lock:
            items = [r for r in self.requests if scope is None or r.get("scope") == scope]
            return json.loads(json.dumps(items))

    def reset(self, scope):
        with self.lock:
            if scope is None:
                self.requests.clear()
                self.fault_counts.clear()
            else:
                self.requests = [r for r in self.requests if r.get("scope") != scope]
                self.fault_counts = {k: v for k, v in self.fault_counts.items() if k[0] != scope}

    def bump(self, scope, mode):
        """How many requests of this fault mode the scope sent before this one."""
        with self.lock:
            n = self.fault_counts.get((scope, mode), 0)
            self.fault_counts[(scope, mode)] = n + 1
            return n

    def new_id(self, prefix):
        with self.lock:
            n = self.next_id
            self.next_id += 1
        return f"{prefix}{n:06d}"


STATE = State(20.0)


# ------------------------------------------------------------ conversation

def as_text(content):
    """The text of a content field: a string or a list of text parts."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(p.get("text", "") for p in content if isinstance(p, dict) and p.get("type") == "text")
    return ""


def read_anthropic(body):
    """(system, items): items are dicts with kind user_text / assistant_text /
    tool_use / tool_result, in conversation order."""
    system = body.get("system", "")
    system = as_text(system) if not isinstance(system, str) else system
    items = []
    for msg in body.get("messages", []):
        role = msg.get("role")
        content = msg.get("content")
        blocks = [{"type": "text", "text": content}] if isinstance(content, str) else (content or [])
        for b in blocks:
            t = b.get("type")
            if t == "text":
                items.append({"kind": f"{role}_text", "text": b.get("text", "")})
            elif t == "tool_use":
                items.append({"kind": "tool_use", "id": b.get("id"), "name": b.get("name"), "input": b.get("input") or {}})
            elif t == "tool_result":
                items.append({"kind": "tool_result", "id": b.get("tool_use_id"), "content": as_text(b.get("content")), "is_error": bool(b.get("is_error"))})
    return system, items


def read_openai(body):
    system = ""
    items = []
    for msg in body.get("messages", []):
        role = msg.get("role")
        if role in ("system", "developer"):
            system += as_text(msg.get("content"))
        elif role == "user":
            items.append({"kind": "user_text", "text": as_text(msg.get("content"))})
        elif role == "assistant":
            text = as_text(msg.get("content"))
            if text:
                items.append({"kind": "assistant_text", "text": text})
            for call in msg.get("tool_calls") or []:
                f = call.get("function") or {}
                try:
                    args = json.loads(f.get("arguments") or "{}")
                except ValueError:
                    args = {}
                items.append({"kind": "tool_use", "id": call.get("id"), "name": f.get("name"), "input": args})
        elif role == "tool":
            content = as_text(msg.get("content"))
            items.append({"kind": "tool_result", "id": msg.get("tool_call_id"), "content": content, "is_error": content.startswith("Error")})
    return system, items


def heard_messages(items):
    """Bus messages delivered to the agent: a teammate gets one JSON object
    per text block, or per line when several arrive at once; the lead an
    `<inbox>[...]</inbox>` block."""
    out = []
    for it in items:
        if it["kind"] != "user_text":
            continue
        text = it["text"].strip()
        m = re.fullmatch(r"<inbox>(.*)</inbox>", text, re.S)
        candidates = [text]
        if m:
            candidates = [m.group(1)]
        elif "\n" in text:
            candidates = [text] + [line for line in text.splitlines() if line.strip()]
        for c in candidates:
            try:
                v = json.loads(c)
            except ValueError:
                continue
            for msg in v if isinstance(v, list) else [v]:
                if isinstance(msg, dict) and "type" in msg and "from" in msg:
                    out.append(msg)
    return out


def file_protocols(system):
    """A protocol file's protocols the system prompt names, in order:
    [(protocol, {"ask": tool, "answer": tool, ...})] from its sentences
    "The NAME protocol: ask with X, answer with Y, check a request with Z."."""
    out = []
    for name, parts in re.findall(r"The ([a-z][a-z0-9_]*) protocol: ([^.]*)\.", system):
        tools = {}
        for verb, tool in re.findall(r"(ask|answer) with ([A-Za-z0-9_-]+)", parts):
            tools[verb] = tool
        out.append((name, tools))
    return out


def filled(schema, given):
    """`given`, with each required field the schema lists and `given` lacks
    filled in: an enum's first value, else "x", 1 or true by type."""
    out = dict(given)
    props = (schema or {}).get("properties") or {}
    for key in (schema or {}).get("required") or []:
        if key in out:
            continue
        p = props.get(key) or {}
        if p.get("enum"):
            out[key] = p["enum"][0]
        else:
            out[key] = {"integer": 1, "number": 1, "boolean": True}.get(p.get("type"), "x")
    return out


def tool_schemas(body, openai):
    """The request's tools: {name: input schema}."""
    out = {}
    for t in body.get("tools") or []:
        if openai:
            f = t.get("function") or {}
            out[f.get("name")] = f.get("parameters")
        else:
            out[t.get("name")] = t.get("input_schema")
    return out


def decide(system, items, schemas=None):
    """The scripted policy: (text, [(tool name, input)])."""
    schemas = schemas or {}
    used = [it for it in items if it["kind"] == "tool_use"]
    protocols = file_protocols(system)
    if system.startswith("You are a team lead"):
        prompts = [it["text"] for it in items if it["kind"] == "user_text" and not it["text"].strip().startswith("<inbox>")]
        prompt = prompts[0] if prompts else ""
        lower = prompt.lower()
        m = re.search(r"\bspawn\s+(?:a\s+teammate\s+(?:named|called)\s+)?'?([a-z][a-z0-9_-]*)", lower)
        wants_shutdown = "shutdown" in lower or "shut down" in lower
        if m:
            name = m.group(1)
            role_m = re.search(r"\bas\s+an?\s+([a-z][a-z0-9_-]*)", lower)
            role = role_m.group(1) if role_m else "coder"
            if not any(u["name"] == "spawn_teammate" for u in used):
                return (f"Spawning {name} \u2014 the caf\u00e9 notes \u2713.", [("spawn_teammate", {
                    "name": name, "role": role, "prompt": f"You are {name}, a {role}. Write the caf\u00e9 notes in notes.md."})])
            for protocol, tools in protocols:
                ask = tools.get("ask")
                if ask and ask in schemas and not any(u["name"] == ask for u in used):
                    return (f"Asking {name} ({protocol}).", [(ask, filled(schemas[ask], {"teammate": name}))])
            if wants_shutdown and not any(u["name"] == "shutdown_request" for u in used):
                return (f"Asking {name} to shut down.", [("shutdown_request", {"teammate": name})])
        answers = [m for m in heard_messages(items) if m.get("type") == "shutdown_response"]
        if answers:
            verdict = "approved" if answers[-1].get("approve") else "rejected"
            return (f"The shutdown was {verdict}. All done.", [])
        return ("All done.", [])
    name_m = re.match(r"You are '([^']+)'", system)
    if not name_m:
        return ("Hello from the fake model.", [])
    name = name_m.group(1)
    answered = {str(u["input"].get("request_id")) for u in used if "request_id" in u["input"]}
    answers = [(protocol, tools["answer"]) for protocol, tools in protocols if tools.get("answer") in schemas]
    for msg in heard_messages(items):
        rid = msg.get("request_id")
        if not rid or str(rid) in answered:
            continue
        if msg.get("type") == "shutdown_request":
            return (f"{name} wraps up.", [("shutdown_response", {"request_id": rid, "approve": True, "reason": "My work is done."})])
        mine = [tool for protocol, tool in answers if str(msg.get("type", "")).startswith(protocol + "_")]
        tool = mine[0] if mine else (answers[0][1] if len(answers) == 1 else None)
        if tool and msg.get("type") != "shutdown_response":
            return (f"{name} answers {msg.get('type')}.", [(tool, filled(schemas[tool], {"request_id": rid, "approve": True}))])
    return (f"{name}: notes written.", [])


# ------------------------------------------------------------ validation

def check_tools(tools, openai):
    if tools is None:
        return
    if not isinstance(tools, list):
        raise BadRequest("tools: must be a list")
    seen = set()
    for i, t in enumerate(tools):
        if openai:
            if t.get("type") != "function" or not isinstance(t.get("function"), dict):
                raise BadRequest(f"tools[{i}]: must be {{type: function, function: {{...}}}}")
            t = t["function"]
            schema = t.get("parameters")
        else:
            schema = t.get("input_schema")
        name = t.get("name")
        if not isinstance(name, str) or not TOOL_NAME.match(name):
            raise BadRequest(f"tools[{i}].name: {name!r} does not match ^[a-zA-Z0-9_-]{{1,64}}$")
        if name in seen:
            raise BadRequest(f"tools: tool names must be unique ({name})")
        seen.add(name)
        if not isinstance(schema, dict) or schema.get("type") != "object":
            raise BadRequest(f"tools[{i}]: the input schema must be a JSON Schema of type object")


def check_anthropic(headers, body):
    if not headers.get("x-api-key"):
        raise PermissionError("x-api-key header is required")
    if headers.get("anthropic-version") != "2023-06-01":
        raise BadRequest("anthropic-version: header is required (2023-06-01)")
    if "json" not in headers.get("content-type", ""):
        raise BadRequest("content-type must be application/json")
    if not isinstance(body.get("model"), str) or not body["model"]:
        raise BadRequest("model: Field required")
    mt = body.get("max_tokens")
    if not isinstance(mt, int) or isinstance(mt, bool) or mt < 1:
        raise BadRequest("max_tokens: Field required (an integer >= 1)")
    msgs = body.get("messages")
    if not isinstance(msgs, list) or not msgs:
        raise BadRequest("messages: at least one message is required")
    if msgs[0].get("role") != "user":
        raise BadRequest("messages: the first message must use the user role")
    check_tools(body.get("tools"), openai=False)
    pending = []  # tool_use ids of the previous assistant message
    for i, m in enumerate(msgs):
        role = m.get("role")
        if role not in ("user", "assistant"):
            raise BadRequest(f"messages.{i}.role: must be user or assistant")
        if i and msgs[i - 1].get("role") == role:
            raise BadRequest(f"messages.{i}: roles must alternate between user and assistant")
        content = m.get("content")
        blocks = [{"type": "text", "text": content}] if isinstance(content, str) else content
        if not isinstance(blocks, list) or not blocks:
            raise BadRequest(f"messages.{i}.content: must not be empty")
        for j, b in enumerate(blocks):
            if b.get("type") == "text" and not str(b.get("text", "")).strip():
                raise BadRequest(f"messages.{i}.content.{j}: text content blocks must be non-empty")
        if role == "user":
            results = [b.get("tool_use_id") for b in blocks if b.get("type") == "tool_result"]
            kinds = [b.get("type") for b in blocks]
            if results and kinds[: len(results)] != ["tool_result"] * len(results):
                raise BadRequest(f"messages.{i}: tool_result blocks must come first in the user message content")
            missing = [p for p in pending if p not in results]
            if missing:
                raise BadRequest(f"messages.{i}: tool_use ids were found without tool_result blocks immediately after: {', '.join(missing)}")
            stray = [r for r in results if r not in pending]
            if stray:
                raise BadRequest(f"messages.{i}: unexpected tool_use_id found in tool_result blocks: {stray[0]}. Each tool_result block must have a corresponding tool_use block in the previous message.")
            pending = []
        else:
            pending = [b.get("id") for b in blocks if b.get("type") == "tool_use"]
            for b in blocks:
                if b.get("type") == "tool_use" and not isinstance(b.get("input"), dict):
                    raise BadRequest(f"messages.{i}: tool_use.input must be an object")
    if msgs[-1].get("role") != "user" and pending:
        raise BadRequest("messages: the last assistant message's tool_use blocks have no tool_result")


def check_openai(headers, body):
    auth = headers.get("authorization")
    if auth is not None and not re.fullmatch(r"Bearer \S+", auth):
        raise PermissionError("the authorization header must be 'Bearer <key>'")
    if "json" not in headers.get("content-type", ""):
        raise BadRequest("content-type must be application/json")
    if not isinstance(body.get("model"), str) or not body["model"]:
        raise BadRequest("you must provide a model parameter")
    msgs = body.get("messages")
    if not isinstance(msgs, list) or not msgs:
        raise BadRequest("'messages' must contain at least one message")
    if body.get("stream_options") is not None and not body.get("stream"):
        raise BadRequest("The 'stream_options' parameter is only allowed when 'stream' is enabled.")
    check_tools(body.get("tools"), openai=True)
    pending = []
    for i, m in enumerate(msgs):
        role = m.get("role")
        if role == "tool":
            tid = m.get("tool_call_id")
            if tid not in pending:
                raise BadRequest(f"messages[{i}]: messages with role 'tool' must be a response to a preceeding message with 'tool_calls' (tool_call_id {tid!r})")
            pending.remove(tid)
            continue
        if pending:
            raise BadRequest(f"messages[{i}]: an assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: {', '.join(pending)}")
        if role not in ("system", "developer", "user", "assistant"):
            raise BadRequest(f"messages[{i}].role: invalid value {role!r}")
        if role == "assistant":
            for call in m.get("tool_calls") or []:
                f = call.get("function") or {}
                if call.get("type") != "function" or not f.get("name"):
                    raise BadRequest(f"messages[{i}].tool_calls: each call needs type function and a name")
                try:
                    json.loads(f.get("arguments", ""))
                except ValueError:
                    raise BadRequest(f"messages[{i}].tool_calls: arguments must be a JSON string")
                pending.append(call.get("id"))
            if m.get("content") is None and not m.get("tool_calls"):
                raise BadRequest(f"messages[{i}]: an assistant message needs content or tool_calls")
    if pending:
        raise BadRequest("the last assistant message's tool_calls have no tool messages")


# ------------------------------------------------------------ the handler

def sse(event, data):
    return f"event: {event}\ndata: {json.dumps(data, ensure_ascii=False)}\n\n".encode()


def sse_data(data):
    return f"data: {json.dumps(data, ensure_ascii=False)}\n\n".encode()


def pieces(s, n=3):
    """`s` cut into up to n pieces (the first may be empty, as the API does)."""
    if not s:
        return [""]
    step = max(1, len(s) // n)
    return [""] + [s[i:i + step] for i in range(0, len(s), step)]


class ClientGone(Exception):
    pass


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "FakeModelServer/1.0"

    # --------------------------------------------------------- plumbing

    def log_message(self, fmt, *args):
        if self.server.log is not None:
            self.server.log.write("%s %s\n" % (time.strftime("%H:%M:%S"), fmt % args))
            self.server.log.flush()

    def cors(self):
        self.send_header("Access-Control-Allow-Origin", "*")
        self.send_header("Access-Control-Expose-Headers", EXPOSED_HEADERS)

    def send_json(self, status, obj, extra=()):
        data = json.dumps(obj, ensure_ascii=False).encode()
        self.send_response(status)
        self.cors()
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for k, v in extra:
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(data)
        self.wfile.flush()

    def start_chunked(self, content_type):
        self.send_response(200)
        self.cors()
        self.send_header("Content-Type", content_type)
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        self.wfile.flush()

    def chunk(self, data):
        if not data:
            return
        try:
            self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
            self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError) as e:
            raise ClientGone() from e

    def end_chunked(self):
        try:
            self.wfile.write(b"0\r\n\r\n")
            self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError) as e:
            raise ClientGone() from e

    def client_gone(self):
        """True once the client closed its side (fetch aborted)."""
        try:
            readable, _, _ = select.select([self.connection], [], [], 0)
            if not readable:
                return False
            return self.connection.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT) == b""
        except (BlockingIOError, InterruptedError):
            return False
        except OSError:
            return True

    def headers_dict(self):
        return {k.lower(): v for k, v in self.headers.items()}

    def parse_path(self):
        parts = urlsplit(self.path)
        segs = [s for s in parts.path.split("/") if s]
        scope = None
        fault = None
        while len(segs) >= 2 and segs[0] in ("scope", "fault"):
            if segs[0] == "scope":
                scope = segs[1]
            else:
                fault = segs[1]
            segs = segs[2:]
        query = parse_qs(parts.query)
        return "/" + "/".join(segs), scope, fault, query

    # --------------------------------------------------------- methods

    def do_OPTIONS(self):
        rest, scope, _, _ = self.parse_path()
        STATE.record({"method": "OPTIONS", "path": self.path, "scope": scope, "headers": self.headers_dict(), "body": None, "time": time.time()})
        self.send_response(204)
        self.send_header("Access-Control-Allow-Origin", "*")
        self.send_header("Access-Control-Allow-Methods", "GET, POST, OPTIONS")
        self.send_header("Access-Control-Allow-Headers", ALLOWED_HEADERS)
        self.send_header("Access-Control-Expose-Headers", EXPOSED_HEADERS)
        self.send_header("Access-Control-Max-Age", "600")
        self.send_header("Content-Length", "0")
        self.end_headers()

    def do_GET(self):
        rest, scope, _, query = self.parse_path()
        if rest == "/__health":
            self.send_json(200, {"ok": True, "pid": os.getpid(), "uptime_s": round(time.time() - STATE.started, 1)})
        elif rest == "/__requests":
            self.send_json(200, STATE.snapshot(query.get("scope", [scope])[0]))
        else:
            self.send_json(404, {"type": "error", "error": {"type": "not_found_error", "message": f"no GET {rest}"}})

    def do_POST(self):
        rest, scope, fault, query = self.parse_path()
        length = int(self.headers.get("Content-Length") or 0)
        if length > MAX_BODY:
            self.send_json(413, {"type": "error", "error": {"type": "request_too_large", "message": "request too large"}})
            self.close_connection = True
            return
        raw = self.rfile.read(length) if length else b""
        if rest == "/__reset":
            STATE.reset(query.get("scope", [scope])[0])
            self.send_json(200, {"ok": True})
            return
        if rest == "/v1/messages":
            api = "anthropic"
        elif rest == "/v1/chat/completions":
            api = "openai"
        else:
            STATE.record({"method": "POST", "path": self.path, "scope": scope, "headers": self.headers_dict(), "body": None, "time": time.time()})
            self.send_json(404, {"type": "error", "error": {"type": "not_found_error", "message": f"no POST {rest}"}})
            return
        try:
            body = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            body = None
        rec = STATE.record({"method": "POST", "path": self.path, "scope": scope, "api": api, "headers": self.headers_dict(), "body": body, "time": time.time()})
        if body is None or not isinstance(body, dict):
            STATE.update(rec, rejected="the body is not a JSON object", raw=raw.decode("utf-8", "replace")[:2000])
            return self.error(api, 400, "invalid_request_error", "the request body is not a JSON object")
        model = body.get("model") if isinstance(body.get("model"), str) else ""
        if fault is None and model.startswith("fault-"):
            fault = model[len("fault-"):]
        STATE.update(rec, fault=fault)
        try:
            (check_anthropic if api == "anthropic" else check_openai)(self.headers_dict(), body)
        except PermissionError as e:
            STATE.update(rec, rejected=str(e))
            return self.error(api, 401, "authentication_error", str(e))
        except BadRequest as e:
            STATE.update(rec, rejected=str(e))
            return self.error(api, 400, "invalid_request_error", str(e))
        stream = bool(body.get("stream"))
        try:
            self.answer(api, body, stream, scope, fault, rec)
        except ClientGone:
            STATE.update(rec, client_gone=True)
            self.close_connection = True

    # --------------------------------------------------------- replies

    def error(self, api, status, kind, message, extra=()):
        if api == "anthropic":
            obj = {"type": "error", "error": {"type": kind, "message": message}}
        else:
            code = {401: "invalid_api_key", 429: "rate_limit_exceeded"}.get(status)
            obj = {"error": {"message": message, "type": kind, "param": None, "code": code}}
        self.send_json(status, obj, extra)

    def answer(self, api, body, stream, scope, fault, rec):
        if fault is not None and fault not in FAULT_MODES:
            STATE.update(rec, rejected=f"unknown fault mode {fault!r}")
            return self.error(api, 400, "invalid_request_error", f"unknown fault mode {fault!r}; known: {', '.join(FAULT_MODES)}")
        if fault == "401":
            return self.error(api, 401, "authentication_error", "invalid x-api-key")
        if fault == "401-echo":
            h = self.headers_dict()
            sent = h.get("x-api-key") or h.get("authorization", "").removeprefix("Bearer ")
            return self.error(api, 401, "authentication_error", f"invalid API key: {sent} (key={sent!r})")
        if fault == "429" and STATE.bump(scope, "429") == 0:
            return self.error(api, 429, "rate_limit_error", "Number of request tokens has exceeded your per-minute rate limit", [("retry-after", "1")])
        if fault == "529" and STATE.bump(scope, "529") == 0:
            return self.error(api, 529, "overloaded_error", "Overloaded")
        if fault == "slow":
            deadline = time.monotonic() + STATE.slow_seconds
            while time.monotonic() < deadline and not STOPPING.is_set():
                if self.client_gone():
                    raise ClientGone()
                time.sleep(SLOW_STEP)
            STATE.update(rec, slow_completed=True)
        system, items = (read_anthropic if api == "anthropic" else read_openai)(body)
        text, calls = decide(system, items, tool_schemas(body, openai=api != "anthropic"))
        if fault == "malformed":
            return self.malformed(api, stream)
        if fault == "midstream-error":
            return self.midstream(api, body, stream, text)
        prompt_tokens = max(1, len(json.dumps(body)) // 4)
        if api == "anthropic":
            self.anthropic_reply(body, stream, text, calls, prompt_tokens, fault)
        else:
            self.openai_reply(body, stream, text, calls, prompt_tokens, fault)

    def anthropic_reply(self, body, stream, text, calls, prompt_tokens, fault=None):
        content = []
        if text:
            content.append({"type": "text", "text": text})
        for name, inp in calls:
            content.append({"type": "tool_use", "id": STATE.new_id("toolu_fake_"), "name": name, "input": inp})
        stop = "tool_use" if calls else "end_turn"
        out_tokens = max(1, len(json.dumps(content)) // 4)
        msg_id = STATE.new_id("msg_fake_")
        cached = fault == "cached"
        no_usage = fault == "no-usage"

        def usage(output_tokens):
            return {"input_tokens": prompt_tokens, "cache_creation_input_tokens": CACHE_WRITE if cached else 0,
                    "cache_read_input_tokens": CACHE_READ if cached else 0, "output_tokens": output_tokens}
        if not stream:
            reply = {
                "id": msg_id, "type": "message", "role": "assistant", "model": body["model"], "content": content,
                "stop_reason": stop, "stop_sequence": None, "usage": usage(out_tokens),
            }
            if no_usage:
                del reply["usage"]
            return self.send_json(200, reply)
        self.start_chunked("text/event-stream; charset=utf-8")
        start = {"id": msg_id, "type": "message", "role": "assistant", "content": [], "model": body["model"],
                 "stop_reason": None, "stop_sequence": None, "usage": usage(1)}
        if no_usage:
            del start["usage"]
        self.chunk(sse("message_start", {"type": "message_start", "message": start}))
        self.chunk(sse("ping", {"type": "ping"}))
        for index, block in enumerate(content):
            if block["type"] == "text":
                self.chunk(sse("content_block_start", {"type": "content_block_start", "index": index, "content_block": {"type": "text", "text": ""}}))
                for piece in pieces(block["text"])[1:]:
                    ev = sse("content_block_delta", {"type": "content_block_delta", "index": index, "delta": {"type": "text_delta", "text": piece}})
                    # Split one event across two chunks, inside a multi-byte
                    # character when there is one: the client must re-join.
                    cut = next((i for i, b in enumerate(ev) if b >= 0x80), len(ev) // 2) + 1
                    self.chunk(ev[:cut])
                    self.chunk(ev[cut:])
            else:
                self.chunk(sse("content_block_start", {"type": "content_block_start", "index": index, "content_block": {
                    "type": "tool_use", "id": block["id"], "name": block["name"], "input": {}}}))
                for piece in pieces(json.dumps(block["input"], ensure_ascii=False)):
                    self.chunk(sse("content_block_delta", {"type": "content_block_delta", "index": index, "delta": {"type": "input_json_delta", "partial_json": piece}}))
            self.chunk(sse("content_block_stop", {"type": "content_block_stop", "index": index}))
        delta = {"type": "message_delta", "delta": {"stop_reason": stop, "stop_sequence": None}, "usage": {"output_tokens": out_tokens}}
        if no_usage:
            del delta["usage"]
        self.chunk(sse("message_delta", delta))
        self.chunk(sse("message_stop", {"type": "message_stop"}))
        self.end_chunked()

    def openai_reply(self, body, stream, text, calls, prompt_tokens, fault=None):
        tool_calls = [{"id": STATE.new_id("call_fake_"), "type": "function", "function": {"name": n, "arguments": json.dumps(i, ensure_ascii=False)}} for n, i in calls]
        finish = "tool_calls" if calls else "stop"
        out_tokens = max(1, (len(text) + len(json.dumps(tool_calls))) // 4)
        usage = {"prompt_tokens": prompt_tokens, "completion_tokens": out_tokens, "total_tokens": prompt_tokens + out_tokens}
        if fault == "cached":
            # OpenAI counts cached prompt tokens inside prompt_tokens.
            usage = {"prompt_tokens": prompt_tokens + CACHE_READ, "completion_tokens": out_tokens,
                     "total_tokens": prompt_tokens + CACHE_READ + out_tokens, "prompt_tokens_details": {"cached_tokens": CACHE_READ}}
        no_usage = fault == "no-usage"
        cid = STATE.new_id("chatcmpl-fake-")
        created = int(time.time())
        if not stream:
            message = {"role": "assistant", "content": text or None, "refusal": None}
            if tool_calls:
                message["tool_calls"] = tool_calls
            reply = {
                "id": cid, "object": "chat.completion", "created": created, "model": body["model"],
                "choices": [{"index": 0, "message": message, "logprobs": None, "finish_reason": finish}], "usage": usage,
            }
            if no_usage:
                del reply["usage"]
            return self.send_json(200, reply)

        def chunk_of(delta, finish_reason=None):
            return {"id": cid, "object": "chat.completion.chunk", "created": created, "model": body["model"],
                    "choices": [{"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish_reason}], "usage": None}

        self.start_chunked("text/event-stream; charset=utf-8")
        self.chunk(sse_data(chunk_of({"role": "assistant", "content": "", "refusal": None})))
        for piece in pieces(text)[1:]:
            self.chunk(sse_data(chunk_of({"content": piece})))
        for index, call in enumerate(tool_calls):
            self.chunk(sse_data(chunk_of({"tool_calls": [{"index": index, "id": call["id"], "type": "function", "function": {"name": call["function"]["name"], "arguments": ""}}]})))
            self.chunk(b": keep-alive\n\n")
            for piece in pieces(call["function"]["arguments"])[1:]:
                self.chunk(sse_data(chunk_of({"tool_calls": [{"index": index, "function": {"arguments": piece}}]})))
        self.chunk(sse_data(chunk_of({}, finish)))
        if (body.get("stream_options") or {}).get("include_usage") and not no_usage:
            final = chunk_of({})
            final["choices"] = []
            final["usage"] = usage
            self.chunk(sse_data(final))
        self.chunk(b"data: [DONE]\n\n")
        self.end_chunked()

    def malformed(self, api, stream):
        if stream:
            self.start_chunked("text/event-stream; charset=utf-8")
            if api == "anthropic":
                self.chunk(b'event: message_start\ndata: {"type":"message_start","message":{"id":"msg_broken",\n\n')
            else:
                self.chunk(b'data: {"id":"chatcmpl-broken","choices":[{"index":0,"delta":{"content":\n\n')
            self.end_chunked()
        else:
            data = b'{"id": "msg_broken", "content": [{"type": "text", "text": "cut'
            self.send_response(200)
            self.cors()
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
            self.wfile.flush()

    def midstream(self, api, body, stream, text):
        if not stream:
            # The connection drops halfway through the body.
            data = json.dumps({"id": "msg_cut", "type": "message", "content": [{"type": "text", "text": text * 20}]}).encode()
            self.send_response(200)
            self.cors()
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data[: len(data) // 2])
            self.wfile.flush()
            self.close_connection = True
            self.connection.shutdown(socket.SHUT_RDWR)
            return
        self.start_chunked("text/event-stream; charset=utf-8")
        if api == "anthropic":
            self.chunk(sse("message_start", {"type": "message_start", "message": {
                "id": "msg_midstream", "type": "message", "role": "assistant", "content": [], "model": body["model"],
                "stop_reason": None, "stop_sequence": None, "usage": {"input_tokens": 10, "output_tokens": 1}}}))
            self.chunk(sse("content_block_start", {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}}))
            self.chunk(sse("content_block_delta", {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "Here is the first part"}}))
            self.chunk(sse("error", {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}))
        else:
            self.chunk(sse_data({"id": "chatcmpl-midstream", "object": "chat.completion.chunk", "created": int(time.time()), "model": body["model"],
                                 "choices": [{"index": 0, "delta": {"role": "assistant", "content": "Here is the first part"}, "logprobs": None, "finish_reason": None}]}))
            self.chunk(sse_data({"error": {"message": "The server is overloaded, try again later", "type": "server_error", "code": 503}}))
        self.end_chunked()


# ------------------------------------------------------------ self-test

def self_test():
    """Exercises the server over real sockets on a free loopback port:
    the scripted policy in both dialects and both reply forms, the request
    checks, every fault mode, the request log, SIGTERM and the lifetime."""
    import subprocess
    import urllib.error
    import urllib.request

    STATE.slow_seconds = 1.0
    server = Server(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.1}, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}"
    checks = 0

    def ok(cond, what):
        nonlocal checks
        checks += 1
        if not cond:
            raise AssertionError(what)

    def call(path, body=None, headers=None, method=None):
        data = None if body is None else (body if isinstance(body, bytes) else json.dumps(body).encode())
        req = urllib.request.Request(url + path, data=data, headers=headers or {}, method=method)
        try:
            with urllib.request.urlopen(req, timeout=10) as r:
                return r.status, {k.lower(): v for k, v in r.headers.items()}, r.read()
        except urllib.error.HTTPError as e:
            return e.code, {k.lower(): v for k, v in e.headers.items()}, e.read()

    ant_h = {"x-api-key": "k", "anthropic-version": "2023-06-01", "content-type": "application/json"}
    oai_h = {"content-type": "application/json", "authorization": "Bearer k"}
    lead_sys = "You are a team lead at /workspace. Manage teammates with shutdown and plan approval protocols."
    mate_sys = "You are 'alice', role: coder, at /workspace. Respond to shutdown_request with shutdown_response."
    tool = {"name": "spawn_teammate", "description": "d", "input_schema": {"type": "object", "properties": {}}}
    shutdown_msg = json.dumps({"type": "shutdown_request", "from": "lead", "to": "alice", "content": "", "timestamp": 1, "request_id": "abcd1234"})

    def events(raw):
        out = []
        for block in raw.decode().split("\n\n"):
            data = [l[6:] for l in block.split("\n") if l.startswith("data: ")]
            if data:
                out.append(data[0] if data[0] == "[DONE]" else json.loads(data[0]))
        return out

    def anthropic(scope, messages, system=lead_sys, stream=False, fault=""):
        body = {"model": "m", "max_tokens": 100, "system": system, "messages": messages, "tools": [tool], "stream": stream}
        status, headers, raw = call(f"/scope/{scope}{fault}/v1/messages", body, ant_h)
        if status != 200 or not stream:
            return status, headers, (json.loads(raw) if raw.startswith(b"{") and raw.endswith(b"}") else raw)
        evs = events(raw)
        ok(evs[0]["type"] == "message_start" and evs[-1]["type"] == "message_stop", "stream framing")
        content, parts = [], {}
        for e in evs:
            if e["type"] == "content_block_start":
                content.append(dict(e["content_block"]))
                parts[e["index"]] = ""
            elif e["type"] == "content_block_delta":
                d = e["delta"]
                if d["type"] == "text_delta":
                    content[e["index"]]["text"] += d["text"]
                else:
                    parts[e["index"]] += d["partial_json"]
            elif e["type"] == "content_block_stop" and content[e["index"]]["type"] == "tool_use":
                content[e["index"]]["input"] = json.loads(parts[e["index"]])
            elif e["type"] == "message_delta":
                stop = e["delta"]["stop_reason"]
        return status, headers, {"content": content, "stop_reason": stop}

    # Health, CORS preflight, the request log.
    status, _, raw = call("/__health")
    ok(status == 200 and json.loads(raw)["ok"], "health")
    status, headers, _ = call("/scope/p/v1/messages", method="OPTIONS", headers={"Origin": "http://x", "Access-Control-Request-Method": "POST"})
    ok(status == 204 and headers["access-control-allow-origin"] == "*", "preflight")
    for h in ("x-api-key", "anthropic-version", "anthropic-dangerous-direct-browser-access", "authorization", "content-type"):
        ok(h in headers["access-control-allow-headers"], f"preflight allows {h}")
    ok("retry-after" in headers["access-control-expose-headers"], "retry-after exposed")

    # Anthropic, both forms: spawn, shutdown_request, end_turn; the teammate approves.
    for stream in (False, True):
        sc = f"lead-{stream}"
        convo = [{"role": "user", "content": [{"type": "text", "text": "Spawn alice as a coder. Then request her shutdown."}]}]
        names = []
        for _ in range(3):
            status, _, reply = anthropic(sc, convo, stream=stream)
            ok(status == 200, f"lead call: {status} {reply}")
            uses = [b for b in reply["content"] if b["type"] == "tool_use"]
            names.append(uses[0]["name"] if uses else reply["stop_reason"])
            if not uses:
                break
            convo += [{"role": "assistant", "content": reply["content"]},
                      {"role": "user", "content": [{"type": "tool_result", "tool_use_id": u["id"], "content": "ok"} for u in uses]}]
        ok(names == ["spawn_teammate", "shutdown_request", "end_turn"], f"lead script {names}")
        ok(convo[1]["content"][1]["input"]["name"] == "alice" and convo[1]["content"][1]["input"]["role"] == "coder", "spawn input")
        status, _, reply = anthropic(sc, [{"role": "user", "content": "Write notes."}], system=mate_sys, stream=stream)
        ok(reply["stop_reason"] == "end_turn", "an idle teammate ends its turn")
        mate = [{"role": "user", "content": "Write notes."}, {"role": "assistant", "content": [{"type": "text", "text": "ok"}]},
                {"role": "user", "content": [{"type": "text", "text": shutdown_msg}]}]
        status, _, reply = anthropic(sc, mate, system=mate_sys, stream=stream)
        use = [b for b in reply["content"] if b["type"] == "tool_use"][0]
        ok(use["name"] == "shutdown_response" and use["input"]["approve"] is True and use["input"]["request_id"] == "abcd1234", f"teammate {use}")
        log = json.loads(call(f"/__requests?scope={sc}")[2])
        ok(len(log) == 5 and all(r["headers"]["x-api-key"] == "k" and "rejected" not in r for r in log), "request log")

    # OpenAI, both forms.
    for stream in (False, True):
        msgs = [{"role": "system", "content": lead_sys}, {"role": "user", "content": "Spawn alice. Then request her shutdown."}]
        names = []
        for _ in range(3):
            body = {"model": "m", "messages": msgs, "stream": stream, "tools": [{"type": "function", "function": {"name": "spawn_teammate", "parameters": {"type": "object"}}}]}
            if stream:
                body["stream_options"] = {"include_usage": True}
            status, _, raw = call("/scope/oai/v1/chat/completions", body, oai_h)
            ok(status == 200, f"openai {status} {raw[:200]}")
            if stream:
                evs = events(raw)
                ok(evs[-1] == "[DONE]" and evs[-2]["usage"]["prompt_tokens"] > 0, "openai stream end")
                calls = {}
                for e in evs[:-1]:
                    for c in (e["choices"][0]["delta"].get("tool_calls", []) if e["choices"] else []):
                        slot = calls.setdefault(c["index"], {"id": "", "name": "", "arguments": ""})
                        slot["id"] = c.get("id", slot["id"])
                        slot["name"] = c.get("function", {}).get("name", slot["name"])
                        slot["arguments"] += c.get("function", {}).get("arguments", "")
                tool_calls = [{"id": c["id"], "type": "function", "function": {"name": c["name"], "arguments": c["arguments"]}} for c in calls.values()]
            else:
                tool_calls = json.loads(raw)["choices"][0]["message"].get("tool_calls", [])
            names.append(tool_calls[0]["function"]["name"] if tool_calls else "stop")
            if not tool_calls:
                break
            msgs = msgs + [{"role": "assistant", "content": None, "tool_calls": tool_calls}] + [{"role": "tool", "tool_call_id": c["id"], "content": "ok"} for c in tool_calls]
        ok(names == ["spawn_teammate", "shutdown_request", "stop"], f"openai lead script {names}")

    # A protocol file's own protocol (OpenAI, non-streaming): the lead asks
    # with the file's request tool between spawn and shutdown; the teammate
    # answers with the file's answer tool, its required enum filled.
    fn = lambda name, params: {"type": "function", "function": {"name": name, "parameters": params}}
    file_lead_sys = lead_sys + " The status protocol: ask with ask_status, check a request with status_request."
    lead_tools = [fn("spawn_teammate", {"type": "object"}), fn("shutdown_request", {"type": "object"}),
                  fn("ask_status", {"type": "object", "properties": {"teammate": {"type": "string"}}, "required": ["teammate"]})]
    msgs = [{"role": "system", "content": file_lead_sys}, {"role": "user", "content": "Spawn gina to write docs, ask for her status, then request her shutdown."}]
    names = []
    for _ in range(4):
        status, _, raw = call("/scope/ofile/v1/chat/completions", {"model": "m", "messages": msgs, "tools": lead_tools}, oai_h)
        ok(status == 200, f"file lead {status} {raw[:200]}")
        tool_calls = json.loads(raw)["choices"][0]["message"].get("tool_calls", [])
        names.append(tool_calls[0]["function"]["name"] if tool_calls else "stop")
        if not tool_calls:
            break
        msgs = msgs + [{"role": "assistant", "content": None, "tool_calls": tool_calls}] + [{"role": "tool", "tool_call_id": c["id"], "content": "ok"} for c in tool_calls]
    ok(names == ["spawn_teammate", "ask_status", "shutdown_request", "stop"], f"file lead script {names}")
    ok(json.loads(msgs[4]["tool_calls"][0]["function"]["arguments"]) == {"teammate": "gina"}, "ask_status names the teammate")
    mate_tools = [fn("report_status", {"type": "object", "properties": {"request_id": {"type": "string"}, "approve": {"type": "boolean"},
                                                                         "progress": {"type": "string", "enum": ["on_track", "blocked", "done"]}, "note": {"type": "string"}},
                                       "required": ["request_id", "approve", "progress"]}),
                  fn("shutdown_response", {"type": "object"})]
    asked = json.dumps({"type": "status_request", "from": "lead", "to": "gina", "content": "", "timestamp": 1, "request_id": "st000001"})
    mate = [{"role": "system", "content": "You are 'gina', role: writer, at /workspace. The status protocol: answer with report_status."},
            {"role": "user", "content": asked + "\n" + shutdown_msg}]
    status, _, raw = call("/scope/ofile/v1/chat/completions", {"model": "m", "messages": mate, "tools": mate_tools}, oai_h)
    call0 = json.loads(raw)["choices"][0]["message"]["tool_calls"][0]
    ok(call0["function"]["name"] == "report_status" and json.loads(call0["function"]["arguments"]) == {"request_id": "st000001", "approve": True, "progress": "on_track"},
       f"the teammate answers the file's request first: {call0}")
    mate += [{"role": "assistant", "content": None, "tool_calls": [call0]}, {"role": "tool", "tool_call_id": call0["id"], "content": "ok"}]
    status, _, raw = call("/scope/ofile/v1/chat/completions", {"model": "m", "messages": mate, "tools": mate_tools}, oai_h)
    ok(json.loads(raw)["choices"][0]["message"]["tool_calls"][0]["function"]["name"] == "shutdown_response", "then the shutdown")

    # The checks a real API makes.
    bad = [
        ([{"role": "user", "content": "x"}, {"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "x", "input": {}}]}, {"role": "user", "content": "y"}], "without tool_result"),
        ([{"role": "user", "content": "x"}, {"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "x", "input": {}}]},
          {"role": "user", "content": [{"type": "text", "text": "y"}, {"type": "tool_result", "tool_use_id": "t1", "content": "r"}]}], "must come first"),
        ([{"role": "user", "content": "x"}, {"role": "user", "content": "y"}], "alternate"),
        ([{"role": "user", "content": [{"type": "text", "text": " "}]}], "non-empty"),
    ]
    for messages, why in bad:
        status, _, reply = anthropic("bad", messages)
        ok(status == 400 and why in reply["error"]["message"], f"refused: {why}: {status} {reply}")
    status, _, _ = call("/scope/bad/v1/messages", {"model": "m", "max_tokens": 1, "messages": [{"role": "user", "content": "x"}]}, {"content-type": "application/json", "anthropic-version": "2023-06-01"})
    ok(status == 401, "no key is a 401")
    status, _, _ = call("/scope/bad/v1/messages", {"model": "m", "max_tokens": 1, "messages": [{"role": "user", "content": "x"}]}, {"content-type": "application/json", "x-api-key": "k"})
    ok(status == 400, "no anthropic-version is a 400")
    status, _, raw = call("/scope/bad/v1/chat/completions", {"model": "m", "messages": [{"role": "user", "content": "x"}, {"role": "tool", "tool_call_id": "c1", "content": "r"}]}, oai_h)
    ok(status == 400 and b"tool_calls" in raw, "a stray tool message is a 400")
    status, _, raw = call("/scope/bad/v1/chat/completions", {"model": "m", "messages": [{"role": "user", "content": "x"}], "stream_options": {"include_usage": True}}, oai_h)
    ok(status == 400, "stream_options without stream is a 400")

    # Fault modes.
    hello = [{"role": "user", "content": "Say hello."}]
    for stream in (False, True):
        body = {"model": "m", "max_tokens": 9, "messages": hello, "stream": stream}
        _, _, raw = call("/scope/fc/fault/cached/v1/messages", body, ant_h)
        ok(f'"cache_read_input_tokens": {CACHE_READ}'.encode() in raw and f'"cache_creation_input_tokens": {CACHE_WRITE}'.encode() in raw, f"anthropic cached usage (stream {stream})")
        _, _, raw = call("/scope/fc/fault/no-usage/v1/messages", body, ant_h)
        ok(b'"usage"' not in raw, f"anthropic without usage (stream {stream})")
        body = {"model": "m", "messages": hello, "stream": stream}
        if stream:
            body["stream_options"] = {"include_usage": True}
        _, _, raw = call("/scope/fc/fault/cached/v1/chat/completions", body, oai_h)
        ok(f'"cached_tokens": {CACHE_READ}'.encode() in raw, f"openai cached usage (stream {stream})")
        _, _, raw = call("/scope/fc/fault/no-usage/v1/chat/completions", body, oai_h)
        ok(b'"prompt_tokens"' not in raw, f"openai without usage (stream {stream})")
    for mode, first in (("429", 429), ("529", 529)):
        status, headers, _ = anthropic(f"f{mode}", hello, fault=f"/fault/{mode}")
        ok(status == first and (mode != "429" or headers.get("retry-after") == "1"), f"{mode} first")
        ok(anthropic(f"f{mode}", hello, fault=f"/fault/{mode}")[0] == 200, f"{mode} then success")
    body = {"model": "fault-401", "max_tokens": 10, "messages": hello}
    ok(all(call("/scope/f401/v1/messages", body, ant_h)[0] == 401 for _ in range(2)), "401 always, also by model name")
    status, _, raw = call("/scope/f401/fault/401-echo/v1/chat/completions", {"model": "m", "messages": hello}, {"content-type": "application/json", "authorization": "Bearer sk-echo"})
    ok(status == 401 and b"sk-echo" in raw, "401-echo repeats the key")
    status, _, raw = anthropic("fm", hello, fault="/fault/malformed")
    ok(status == 200 and isinstance(raw, bytes), "malformed json")
    status, _, raw = call("/scope/fm/fault/malformed/v1/messages", {"model": "m", "max_tokens": 9, "messages": hello, "stream": True}, ant_h)
    ok(status == 200 and b"msg_broken" in raw, "malformed stream")
    status, _, raw = call("/scope/fmid/fault/midstream-error/v1/messages", {"model": "m", "max_tokens": 9, "messages": hello, "stream": True}, ant_h)
    ok(b"Here is the first part" in raw and b"event: error" in raw and b"message_stop" not in raw, "midstream error")
    try:
        call("/scope/fmid/fault/midstream-error/v1/messages", {"model": "m", "max_tokens": 9, "messages": hello}, ant_h)
        ok(False, "a cut-off body is an error")
    except Exception as e:  # http.client.IncompleteRead
        ok("IncompleteRead" in type(e).__name__ or "Incomplete" in str(e), f"cut-off body: {e!r}")
    status, _, _ = anthropic("fbad", hello, fault="/fault/nonsense")
    ok(status == 400, "an unknown fault mode is a 400")

    # Slow: a client that hangs up is noticed at once.
    body = json.dumps({"model": "m", "max_tokens": 9, "messages": hello}).encode()
    sock = socket.create_connection(server.server_address)
    sock.sendall(b"POST /scope/fslow/fault/slow/v1/messages HTTP/1.1\r\nHost: x\r\nx-api-key: k\r\nanthropic-version: 2023-06-01\r\n"
                 b"content-type: application/json\r\nContent-Length: %d\r\n\r\n%s" % (len(body), body))
    time.sleep(0.3)
    sock.close()
    deadline = time.monotonic() + 2
    while time.monotonic() < deadline and not any(r.get("client_gone") for r in json.loads(call("/__requests?scope=fslow")[2])):
        time.sleep(0.05)
    ok(any(r.get("client_gone") for r in json.loads(call("/__requests?scope=fslow")[2])), "slow: the hang-up was seen")
    started = time.monotonic()
    ok(anthropic("fslow2", hello, fault="/fault/slow")[0] == 200 and time.monotonic() - started >= 0.95, "slow: answers after the wait")

    # Reset.
    call("/__reset?scope=f429", b"", method="POST")
    ok(json.loads(call("/__requests?scope=f429")[2]) == [], "reset of one scope")
    ok(anthropic("f429", hello, fault="/fault/429")[0] == 429, "reset clears the fault counters")
    ok(len(json.loads(call("/__requests")[2])) > 10, "other scopes kept")
    server.shutdown()
    server.server_close()

    # SIGTERM and the lifetime stop the process.
    here = os.path.abspath(__file__)
    proc = subprocess.Popen([sys.executable, here, "--port", "0", "--max-lifetime", "1"], stdout=subprocess.PIPE, text=True)
    ok(proc.wait(timeout=10) == 0 and "max lifetime reached" in proc.stdout.read(), "max lifetime")
    proc = subprocess.Popen([sys.executable, here, "--port", "0"], stdout=subprocess.PIPE, text=True)
    ok(proc.stdout.readline().startswith("fake model server listening"), "starts")
    proc.send_signal(signal.SIGTERM)
    ok(proc.wait(timeout=10) == 0 and "SIGTERM" in proc.stdout.read(), "SIGTERM")
    print(f"fake model server self-test: {checks} checks passed")
    return 0


class Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    log = None


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--host", default="127.0.0.1", help="loopback address to bind (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8787, help="port (default 8787; 0 picks a free one)")
    p.add_argument("--port-file", help="write the bound port to this file once listening")
    p.add_argument("--max-lifetime", type=float, default=1800.0, help="stop after this many seconds (default 1800)")
    p.add_argument("--slow-seconds", type=float, default=20.0, help="how long the slow fault waits (default 20)")
    p.add_argument("--log", help="append an access log to this file")
    p.add_argument("--self-test", action="store_true", help="test the server against itself on a free port, then exit")
    args = p.parse_args(argv)
    if args.self_test:
        return self_test()
    if args.host not in ("127.0.0.1", "localhost", "::1"):
        p.error("the fake model server only listens on loopback")
    STATE.slow_seconds = args.slow_seconds

    server = Server((args.host, args.port), Handler)
    if args.log:
        server.log = open(args.log, "a", encoding="utf-8")
    port = server.server_address[1]
    if args.port_file:
        tmp = args.port_file + ".tmp"
        with open(tmp, "w") as f:
            f.write(f"{port}\n")
        os.replace(tmp, args.port_file)

    received = []

    def stop(signum, _frame):
        received.append(signal.Signals(signum).name)
        STOPPING.set()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.2}, daemon=True)
    thread.start()
    print(f"fake model server listening on http://{args.host}:{port} (pid {os.getpid()}, max lifetime {args.max_lifetime:.0f} s)", flush=True)
    stopped = STOPPING.wait(args.max_lifetime)
    reason = (received[0] if received else "stopped") if stopped else "max lifetime reached"
    STOPPING.set()
    server.shutdown()
    server.server_close()
    print(f"fake model server stopped ({reason})", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
