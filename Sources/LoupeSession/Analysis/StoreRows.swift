import LoupeCore
/// Rows kept per store (identity changes in `loupe stats`), in bounded memory however many
/// stores a trace has.
///
/// Up to ``limit`` stores each have their own row. When one more store needs a row, the rows
/// are merged by the stores' shape — the store id with the ids of its scopes and the numbers of
/// its roots as `*` (``shape(of:)``: `AppFeature#1/pages[id: 7]` → `AppFeature#*/pages[id: *]`)
/// — and from then on every store counts in its shape's row: a list of 500,000 pages is one
/// row, which is also what a reader of the table wants. Should even the shapes pass ``limit``
/// (store names made up at run time), the rest count in one ``othersKey`` row. So memory is at
/// most ``limit`` + 1 rows whatever the trace.
package struct StoreRows<Row> {
  /// Rows kept before stores are grouped.
  static package var defaultLimit: Int { 1_000 }
  /// The row of the stores beyond the limit once grouped by shape.
  static package var othersKey: String { "(other stores)" }

  package let limit: Int
  private let merge: (inout Row, Row) -> Void
  package private(set) var rows: [String: Row] = [:]
  /// Whether the rows are by shape (more than ``limit`` stores needed one).
  package private(set) var grouped = false

  /// - Parameter merge: adds a row's counts into another (when stores are grouped).
  package init(limit: Int = Self.defaultLimit, merge: @escaping (inout Row, Row) -> Void) {
    self.limit = max(1, limit)
    self.merge = merge
  }

  package var isEmpty: Bool { rows.isEmpty }

  /// Updates the row of `store` (its shape's once grouped), starting from `initial`.
  mutating package func update(_ store: String, initial: @autoclosure () -> Row, _ body: (inout Row) -> Void) {
    var key = grouped ? Self.shape(of: store) : store
    if rows[key] == nil, rows.count >= limit {
      if !grouped {
        group()
        key = Self.shape(of: store)
      }
      if rows[key] == nil, rows.count >= limit { key = Self.othersKey }
    }
    body(&rows[key, default: initial()])
  }

  private mutating func group() {
    grouped = true
    var byShape: [String: Row] = [:]
    for (store, row) in rows {
      let shape = Self.shape(of: store)
      if byShape[shape] == nil {
        byShape[shape] = row
      } else {
        merge(&byShape[shape]!, row)
      }
    }
    rows = byShape
  }

  /// The store id with what tells stores of one kind apart replaced by `*`: the contents of
  /// each scope's brackets (`[id: 7]` → `[id: *]`, `[3]` → `[*]`) and the number after a `#`
  /// (`AppFeature#2` → `AppFeature#*`).
  static package func shape(of store: String) -> String {
    var shape = ""
    shape.reserveCapacity(store.utf8.count)
    var depth = 0
    var bracketStart = store.unicodeScalars.startIndex
    var afterHash = false
    let scalars = store.unicodeScalars
    var index = scalars.startIndex
    while index < scalars.endIndex {
      let scalar = scalars[index]
      defer { index = scalars.index(after: index) }
      if depth > 0 {
        if scalar == "[" { depth += 1 }
        if scalar == "]" {
          depth -= 1
          if depth == 0 {
            let contents = scalars[scalars.index(after: bracketStart)..<index]
            shape += String(contents).hasPrefix("id: ") ? "[id: *]" : "[*]"
          }
        }
        continue
      }
      if afterHash {
        if ("0"..."9").contains(scalar) { continue }
        afterHash = false
      }
      switch scalar {
      case "[":
        depth = 1
        bracketStart = index
      case "#":
        shape += "#"
        let next = scalars.index(after: index)
        if next < scalars.endIndex, ("0"..."9").contains(scalars[next]) {
          shape += "*"
          afterHash = true
        }
      default:
        shape.unicodeScalars.append(scalar)
      }
    }
    if depth > 0 { shape += "[*" }  // an unclosed bracket: keep the shape's start
    return shape
  }
}
