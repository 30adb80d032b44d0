import LoupeCore
import LoupeRPC

/// One bad input sent to a live program over its socket, and what must happen.
struct WireCase: Sendable, CustomStringConvertible {
  /// Unique, and listed in `docs/malformed-input.md`.
  var id: String
  /// Whether `initialize` is done first on the connection.
  var initialized = true
  /// The bytes written as they are (several frames, garbage, a partial frame …).
  var bytes: [UInt8]
  /// Close our writing side after the bytes (the peer sees end of input).
  var halfClose = false
  var outcome: Outcome

  enum Outcome: Sendable {
    /// The program closes this connection, and its frame decoder reports this error.
    case closes(FrameError)
    /// The program answers exactly this (JSON text, members in the order sent), then still
    /// answers a good request on the same connection.
    case answers(String)
    /// As `answers`, but the connection accepts nothing more (after `shutdown`); the check
    /// uses a new connection.
    case answersThenRefuses(String)
    /// No answer at all (a notification, a stray response); a good request after it is
    /// answered.
    case noAnswer
  }

  var description: String { id }
}

func frame(_ body: String) -> [UInt8] { FrameEncoder.frame(Array(body.utf8)) }
func frame(_ body: [UInt8]) -> [UInt8] { FrameEncoder.frame(body) }
func raw(_ text: String) -> [UInt8] { Array(text.utf8) }

/// `{"jsonrpc":"2.0","id":ID,"error":{"code":CODE,"message":MESSAGE}}`, as the server writes it.
func errorAnswer(id: String, _ code: Int, _ message: String) -> String {
  #"{"jsonrpc":"2.0","id":\#(id),"error":{"code":\#(code),"message":\#(JSON.string(message).jsonText)}}"#
}

enum MalformedInput {
  /// Framing: every case closes that connection only.
  static let frames: [WireCase] = [
    WireCase(id: "frame.no-content-length", bytes: raw("Content-Type: application/json\r\n\r\n{}"), outcome: .closes(.missingContentLength)),
    WireCase(id: "frame.length-not-a-number", bytes: raw("Content-Length: twelve\r\n\r\n"), outcome: .closes(.invalidContentLength("twelve"))),
    WireCase(id: "frame.length-negative", bytes: raw("Content-Length: -2\r\n\r\n{}"), outcome: .closes(.invalidContentLength("-2"))),
    WireCase(id: "frame.length-hex", bytes: raw("Content-Length: 0x10\r\n\r\n"), outcome: .closes(.invalidContentLength("0x10"))),
    WireCase(
      id: "frame.length-overflow", bytes: raw("Content-Length: 99999999999999999999\r\n\r\n"),
      outcome: .closes(.invalidContentLength("99999999999999999999"))),
    WireCase(
      id: "frame.body-over-limit", bytes: raw("Content-Length: 16777217\r\n\r\n{"),
      outcome: .closes(.bodyTooLarge(length: 16_777_217, limit: 16_777_216))),
    WireCase(
      id: "frame.header-over-limit", bytes: raw("X-Padding: " + String(repeating: "a", count: 9000)),
      outcome: .closes(.headerTooLarge(limit: 8192))),
    WireCase(
      id: "frame.duplicate-length", bytes: raw("Content-Length: 2\r\nContent-Length: 2\r\n\r\n{}"),
      outcome: .closes(.duplicateHeader("Content-Length"))),
    WireCase(
      id: "frame.charset-latin1", bytes: raw("Content-Length: 2\r\nContent-Type: text/plain; charset=latin1\r\n\r\n{}"),
      outcome: .closes(.unsupportedCharset("latin1"))),
    WireCase(
      id: "frame.content-type-empty", bytes: raw("Content-Length: 2\r\nContent-Type: ; charset=utf-8\r\n\r\n{}"),
      outcome: .closes(.invalidContentType("; charset=utf-8"))),
    WireCase(id: "frame.bare-lf", bytes: raw("Content-Length: 2\n\n{}"), outcome: .closes(.malformedHeader("bare LF in a header line"))),
    WireCase(id: "frame.cr-without-lf", bytes: raw("Content-Length: 2\r\r\n"), outcome: .closes(.malformedHeader("CR not followed by LF"))),
    WireCase(id: "frame.no-colon", bytes: raw("ContentLength\r\n\r\n"), outcome: .closes(.malformedHeader("header line without ':'"))),
    WireCase(id: "frame.empty-header-name", bytes: raw(": 2\r\n\r\n"), outcome: .closes(.malformedHeader("empty header name"))),
    WireCase(
      id: "frame.non-ascii-header-value", bytes: raw("Content-Length: 2\r\nX-Name: é\r\n\r\n{}"),
      outcome: .closes(.malformedHeader("byte 0xc3 in a header value"))),
    WireCase(
      id: "frame.http-request", bytes: raw("GET / HTTP/1.1\r\nHost: localhost\r\n\r\n"),
      outcome: .closes(.malformedHeader("byte 0x20 in a header name"))),
    WireCase(
      id: "frame.body-without-header", bytes: raw(#"{"jsonrpc":"2.0","id":1,"method":"loupe/stores"}"#),
      outcome: .closes(.malformedHeader("byte 0x7b in a header name"))),
    WireCase(
      id: "frame.tls-client-hello", bytes: [0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xFC, 0x03, 0x03],
      outcome: .closes(.malformedHeader("byte 0x16 in a header name"))),
    WireCase(id: "frame.nul-bytes", bytes: [UInt8](repeating: 0, count: 64), outcome: .closes(.malformedHeader("byte 0x0 in a header name"))),
    WireCase(
      id: "frame.truncated-body", bytes: raw("Content-Length: 100\r\n\r\n{\"jsonrpc\":"), halfClose: true,
      outcome: .closes(.truncatedFrame)),
    WireCase(id: "frame.truncated-header", bytes: raw("Content-Len"), halfClose: true, outcome: .closes(.truncatedFrame)),
    WireCase(
      id: "frame.good-then-garbage", bytes: frame(#"{"jsonrpc":"2.0","method":"initialized"}"#) + raw("\r\n\r\n"),
      outcome: .closes(.missingContentLength)),
  ]

  /// JSON-RPC messages: each answered as JSON-RPC 2.0 says; the connection goes on.
  static let messages: [WireCase] = [
    WireCase(
      id: "message.not-json", bytes: frame(#"{"jsonrpc": "2.0", "method": "foobar, "params": "bar", "baz]"#),
      outcome: .answers(errorAnswer(id: "null", -32700, "Parse error: Expected ',' or '}' in object at byte 39"))),
    WireCase(
      id: "message.invalid-utf8", bytes: frame([0x22, 0xFF, 0xFE, 0x22]),
      outcome: .answers(errorAnswer(id: "null", -32700, "Parse error: Invalid UTF-8 in string at byte 0"))),
    WireCase(
      id: "message.empty-body", bytes: frame(""),
      outcome: .answers(errorAnswer(id: "null", -32700, "Parse error: Unexpected end of input at byte 0"))),
    WireCase(
      id: "message.nested-100000-deep", bytes: frame(String(repeating: "[", count: 100_000)),
      outcome: .answers(errorAnswer(id: "null", -32700, "Parse error: Nesting too deep at byte 512"))),
    WireCase(
      id: "message.empty-batch", bytes: frame("[]"),
      outcome: .answers(errorAnswer(id: "null", -32600, "Invalid request: empty batch"))),
    WireCase(
      id: "message.not-an-object", bytes: frame("42"),
      outcome: .answers(errorAnswer(id: "null", -32600, "Invalid request: expected an object, found number"))),
    WireCase(
      id: "message.no-jsonrpc", bytes: frame(#"{"id":1,"method":"loupe/stores"}"#),
      outcome: .answers(errorAnswer(id: "1", -32600, #"Invalid request: 'jsonrpc' must be "2.0""#))),
    WireCase(
      id: "message.jsonrpc-1.0", bytes: frame(#"{"jsonrpc":"1.0","id":"a","method":"loupe/stores"}"#),
      outcome: .answers(errorAnswer(id: #""a""#, -32600, #"Invalid request: 'jsonrpc' must be "2.0""#))),
    WireCase(
      id: "message.method-not-a-string", bytes: frame(#"{"jsonrpc":"2.0","id":2,"method":7}"#),
      outcome: .answers(errorAnswer(id: "2", -32600, "Invalid request: 'method' must be a string"))),
    WireCase(
      id: "message.id-is-an-object", bytes: frame(#"{"jsonrpc":"2.0","id":{"a":1},"method":"loupe/stores"}"#),
      outcome: .answers(errorAnswer(id: "null", -32600, "Invalid request: 'id' must be an integer or a string"))),
    WireCase(
      id: "message.id-is-fractional", bytes: frame(#"{"jsonrpc":"2.0","id":1.5,"method":"loupe/stores"}"#),
      outcome: .answers(errorAnswer(id: "null", -32600, "Invalid request: 'id' must be an integer or a string"))),
    WireCase(
      id: "message.id-null", bytes: frame(#"{"jsonrpc":"2.0","id":null,"method":"loupe/stores"}"#),
      outcome: .answers(errorAnswer(id: "null", -32600, "Invalid request: 'id' must be an integer or a string"))),
    WireCase(
      id: "message.params-a-string", bytes: frame(#"{"jsonrpc":"2.0","id":3,"method":"loupe/mark","params":"x"}"#),
      outcome: .answers(errorAnswer(id: "3", -32600, "Invalid request: 'params' must be an object or an array, not string"))),
    WireCase(
      id: "message.no-method", bytes: frame(#"{"jsonrpc":"2.0","params":{}}"#),
      outcome: .answers(errorAnswer(id: "null", -32600, "Invalid request: missing 'method'"))),
    WireCase(
      id: "message.unknown-method", bytes: frame(#"{"jsonrpc":"2.0","id":4,"method":"loupe/nope"}"#),
      outcome: .answers(errorAnswer(id: "4", -32601, "Method not found: loupe/nope"))),
    WireCase(
      id: "message.before-initialize", initialized: false, bytes: frame(#"{"jsonrpc":"2.0","id":5,"method":"loupe/stores"}"#),
      outcome: .answers(errorAnswer(id: "5", -32002, "Server not initialized: send 'initialize' first"))),
    WireCase(
      id: "message.initialize-twice", bytes: frame(#"{"jsonrpc":"2.0","id":6,"method":"initialize","params":{}}"#),
      outcome: .answers(errorAnswer(id: "6", -32600, "Already initialized"))),
    WireCase(
      id: "message.after-shutdown",
      bytes: frame(#"{"jsonrpc":"2.0","id":7,"method":"shutdown"}"#) + frame(#"{"jsonrpc":"2.0","id":8,"method":"loupe/stores"}"#),
      outcome: .answersThenRefuses(errorAnswer(id: "8", -32600, "Server is shut down: only 'exit' is accepted"))),
    WireCase(
      id: "message.batch-of-garbage", bytes: frame("[1,true]"),
      outcome: .answers(
        "[" + errorAnswer(id: "null", -32600, "Invalid request: expected an object, found number") + ","
          + errorAnswer(id: "null", -32600, "Invalid request: expected an object, found boolean") + "]")),
    WireCase(
      id: "message.batch-good-and-bad",
      bytes: frame(#"[{"jsonrpc":"2.0","id":9,"method":"loupe/unsubscribe"},{"foo":"boo"},{"jsonrpc":"2.0","method":"initialized"}]"#),
      outcome: .answers(
        #"[{"jsonrpc":"2.0","id":9,"result":null},"# + errorAnswer(id: "null", -32600, #"Invalid request: 'jsonrpc' must be "2.0""#)
          + "]")),
    WireCase(id: "message.stray-response", bytes: frame(#"{"jsonrpc":"2.0","id":1,"result":0}"#), outcome: .noAnswer),
    WireCase(id: "message.unknown-notification", bytes: frame(#"{"jsonrpc":"2.0","method":"loupe/bogus","params":[1]}"#), outcome: .noAnswer),
    WireCase(
      id: "message.cancel-with-bad-id", bytes: frame(#"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":{}}}"#),
      outcome: .noAnswer),
  ]

  /// Params of known methods: `-32602` naming what is wrong.
  static let params: [WireCase] = [
    WireCase(
      id: "params.subscribe-array", bytes: frame(#"{"jsonrpc":"2.0","id":1,"method":"loupe/subscribe","params":[true]}"#),
      outcome: .answers(errorAnswer(id: "1", -32602, "loupe/subscribe params must be an object, not array"))),
    WireCase(
      id: "params.subscribe-kinds-a-string",
      bytes: frame(#"{"jsonrpc":"2.0","id":2,"method":"loupe/subscribe","params":{"filter":{"kinds":"mark"}}}"#),
      outcome: .answers(errorAnswer(id: "2", -32602, "loupe/subscribe params: filter.kinds must be an array of strings"))),
    WireCase(
      id: "params.subscribe-kinds-numbers",
      bytes: frame(#"{"jsonrpc":"2.0","id":3,"method":"loupe/subscribe","params":{"filter":{"stores":[1]}}}"#),
      outcome: .answers(errorAnswer(id: "3", -32602, "loupe/subscribe params: filter.stores must be an array of strings"))),
    WireCase(
      id: "params.subscribe-filter-a-string",
      bytes: frame(#"{"jsonrpc":"2.0","id":4,"method":"loupe/subscribe","params":{"filter":"mark"}}"#),
      outcome: .answers(errorAnswer(id: "4", -32602, "loupe/subscribe params: filter must be an object, not string"))),
    WireCase(
      id: "params.subscribe-history-a-string",
      bytes: frame(#"{"jsonrpc":"2.0","id":5,"method":"loupe/subscribe","params":{"history":"yes"}}"#),
      outcome: .answers(errorAnswer(id: "5", -32602, "loupe/subscribe params: 'history' must be a boolean, not string"))),
    WireCase(
      id: "params.state-missing", bytes: frame(#"{"jsonrpc":"2.0","id":6,"method":"loupe/state"}"#),
      outcome: .answers(errorAnswer(id: "6", -32602, "loupe/state params are required"))),
    WireCase(
      id: "params.state-store-a-number", bytes: frame(#"{"jsonrpc":"2.0","id":7,"method":"loupe/state","params":{"store":1}}"#),
      outcome: .answers(errorAnswer(id: "7", -32602, "loupe/state params: 'store' must be a string, not number"))),
    WireCase(
      id: "params.state-unknown-store", bytes: frame(#"{"jsonrpc":"2.0","id":8,"method":"loupe/state","params":{"store":"Nope#1"}}"#),
      outcome: .answers(errorAnswer(id: "8", -32602, "No live store 'Nope#1'"))),
    WireCase(
      id: "params.state-unterminated-path",
      bytes: frame(#"{"jsonrpc":"2.0","id":9,"method":"loupe/state","params":{"store":"Probe#1","path":"items["}}"#),
      outcome: .answers(errorAnswer(id: "9", -32602, "Invalid path 'items[': unterminated '[' at offset 5"))),
    WireCase(
      id: "params.state-path-without-value",
      bytes: frame(#"{"jsonrpc":"2.0","id":10,"method":"loupe/state","params":{"store":"Probe#1","path":"items[7]"}}"#),
      outcome: .answers(errorAnswer(id: "10", -32602, "Store 'Probe#1' has no value at path 'items[7]'"))),
    WireCase(
      id: "params.state-path-garbage",
      bytes: frame(#"{"jsonrpc":"2.0","id":11,"method":"loupe/state","params":{"store":"Probe#1","path":"]].."}}"#),
      outcome: .answers(errorAnswer(id: "11", -32602, "Invalid path ']]..': empty field name at offset 3"))),
    WireCase(
      id: "params.state-path-100k",
      bytes: frame(
        #"{"jsonrpc":"2.0","id":12,"method":"loupe/state","params":{"store":"Probe#1","path":"# + "\""
          + String(repeating: "a.", count: 50_000) + "a\"}}"),
      outcome: .answers(errorAnswer(id: "12", -32602, "Store 'Probe#1' has no value at path '" + String(repeating: "a.", count: 50_000) + "a'"))),
    WireCase(
      id: "params.mark-missing-label", bytes: frame(#"{"jsonrpc":"2.0","id":13,"method":"loupe/mark","params":{}}"#),
      outcome: .answers(errorAnswer(id: "13", -32602, "loupe/mark params: 'label' is required"))),
    WireCase(
      id: "params.mark-label-a-number", bytes: frame(#"{"jsonrpc":"2.0","id":14,"method":"loupe/mark","params":{"label":3}}"#),
      outcome: .answers(errorAnswer(id: "14", -32602, "loupe/mark params: 'label' must be a string, not number"))),
    WireCase(
      id: "params.stores-array", bytes: frame(#"{"jsonrpc":"2.0","id":15,"method":"loupe/stores","params":[1]}"#),
      outcome: .answers(errorAnswer(id: "15", -32602, "loupe/stores params must be an object, not array"))),
    WireCase(
      id: "params.unsubscribe-array", bytes: frame(#"{"jsonrpc":"2.0","id":16,"method":"loupe/unsubscribe","params":[{}]}"#),
      outcome: .answers(errorAnswer(id: "16", -32602, "loupe/unsubscribe params must be an object, not array"))),
    // `[]` means no params (what Neovim sends for an empty Lua table): fine where all are optional.
    WireCase(
      id: "params.mark-empty-array", bytes: frame(#"{"jsonrpc":"2.0","id":18,"method":"loupe/mark","params":[]}"#),
      outcome: .answers(errorAnswer(id: "18", -32602, "loupe/mark params are required"))),
    WireCase(
      id: "params.initialize-client-info-a-string", initialized: false,
      bytes: frame(#"{"jsonrpc":"2.0","id":17,"method":"initialize","params":{"clientInfo":"nvim"}}"#),
      outcome: .answers(errorAnswer(id: "17", -32602, "initialize params.clientInfo must be an object, not string"))),
  ]
}
