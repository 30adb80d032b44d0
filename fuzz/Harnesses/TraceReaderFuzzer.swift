#if canImport(Glibc)
  import Glibc
#endif
import LoupeCore
@testable import LoupeSession

/// `trace`: arbitrary file contents through `TraceReader`, with small input-chosen chunk and
/// line limits so the buffering and skipping paths are reached.
///
/// Invariants: never traps; reading with a filter yields exactly the events that reading
/// everything and then filtering yields (the fast, undecoded filter path agrees with
/// `EventFilter.matches`); an event yielded undecoded (`decode: false`) that does decode has
/// the kind reported and passes the filter.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTrace(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let input = FuzzInput(data, size)
  var random = input.generator
  let options = TraceReader.Options(
    chunkSize: 16 + Int(random.next() % 256), maximumLineLength: 32 + Int(random.next() % 4096))
  let filter = filters[Int(random.next() % UInt64(filters.count))]

  guard let everything = read(input, options: options, filter: .all, decode: true) else { return 0 }
  let all = everything.compactMap(\.event)
  let filtered = read(input, options: options, filter: filter, decode: true)?.compactMap(\.event)
  guard filtered == all.filter(filter.matches) else {
    fuzzFailure("filter \(filter) reads \(filtered ?? []) but matches \(all.filter(filter.matches))")
  }
  for item in read(input, options: options, filter: filter, decode: false) ?? [] where item.event == nil {
    guard let event = try? Event(jsonText: item.bytes) else { continue }
    guard event.kind == item.kind, filter.matches(event) else {
      fuzzFailure("undecoded line \(String(decoding: item.bytes, as: UTF8.self)) does not pass \(filter)")
    }
  }
  return 0
}

private struct ReadItem {
  var kind: String
  var bytes: [UInt8]
  var event: Event?
}

/// Every item of the trace in `input`; `nil` when the header is refused.
private func read(_ input: FuzzInput, options: TraceReader.Options, filter: EventFilter, decode: Bool) -> [ReadItem]? {
  rewind(with: input.bytes)
  guard let reader = try? TraceReader(fileDescriptor: scratchFile, name: "fuzz.loupe", options: options) else { return nil }
  var items: [ReadItem] = []
  while let item = try? reader.next(filter: filter, decode: decode) {
    if let event = item.event, event.kind != item.kind { fuzzFailure("item kind \(item.kind) for a \(event.kind) event") }
    items.append(ReadItem(kind: item.kind, bytes: Array(item.bytes), event: item.event))
  }
  _ = reader.truncation?.description
  _ = reader.malformedLines.map(\.description)
  return items
}

private let filters: [EventFilter] = [
  .all,
  EventFilter(kinds: [Glob("mark"), Glob("state.*")]),
  EventFilter(stores: [Glob("App#1*")]),
  EventFilter(actions: [Glob("*.tick*")]),
  EventFilter(paths: [Glob("count"), Glob("items[*")]),
  EventFilter(kinds: [Glob("action.received")], stores: [Glob("*")], actions: [Glob("?*")]),
]

/// A scratch file each input is written to (the reader needs a descriptor): in `/dev/shm`
/// when there is one, removed from the directory at once so nothing is left behind.
private let scratchFile: Int32 = {
  let directory = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp"
  var template = Array("\(directory)/loupe-fuzz-trace-XXXXXX".utf8CString)
  let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
  precondition(fd >= 0, "mkstemp failed")
  _ = template.withUnsafeBufferPointer { unlink($0.baseAddress!) }
  return fd
}()

private func rewind(with bytes: UnsafeBufferPointer<UInt8>) {
  precondition(ftruncate(scratchFile, 0) == 0)
  var offset = 0
  while offset < bytes.count {
    let n = pwrite(scratchFile, bytes.baseAddress! + offset, bytes.count - offset, off_t(offset))
    precondition(n > 0, "pwrite failed")
    offset += n
  }
  precondition(lseek(scratchFile, 0, SEEK_SET) == 0)
}
