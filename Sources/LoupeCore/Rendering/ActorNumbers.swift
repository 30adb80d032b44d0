/// The numbers that tell actor instances apart in renderings: `"<actor Counter#2>"`.
///
/// An actor's stored properties are isolated to it and never read from outside (see
/// ``TypeInfo``), so its rendering cannot show what it holds; it shows which instance it is.
/// Instances of a type are numbered from 1 in the order they are first rendered in this
/// process, so a state that swaps one actor for another changes its rendering (and its diff
/// reports it), while the same instance renders the same every time. A deterministic program
/// numbers its actors alike on every run.
///
/// Instances are held weakly: an instance that is gone frees its number's entry, and a new
/// instance at the same address gets a new number (an `ObjectIdentifier` alone would give it
/// the old one).
enum ActorNumbers {
  // @unchecked: a weak reference, only read and written under the table's lock.
  private struct Entry: @unchecked Sendable {
    weak var object: AnyObject?
    let number: Int
  }

  private struct Table: Sendable {
    var entries: [ObjectIdentifier: Entry] = [:]
    /// The last number given, by actor type.
    var last: [ObjectIdentifier: Int] = [:]
    /// The entry count at which dead entries are next swept out.
    var sweepAt = 64
  }

  private static let table = Lock(Table())

  /// The number of `object` among the instances of its type.
  static func number(of object: AnyObject) -> Int {
    let key = ObjectIdentifier(object)
    let type = ObjectIdentifier(Swift.type(of: object))
    let fresh = Entry(object: object, number: 0)
    return table.withLock { table in
      // Still the same instance: its entry's object is alive (an instance that is gone leaves
      // `nil`, and its address may be another's now).
      if let entry = table.entries[key], let held = entry.object, ObjectIdentifier(held) == key { return entry.number }
      let number = (table.last[type] ?? 0) + 1
      table.last[type] = number
      table.entries[key] = Entry(object: fresh.object, number: number)
      if table.entries.count >= table.sweepAt {
        table.entries = table.entries.filter { $0.value.object != nil }
        table.sweepAt = max(64, table.entries.count * 2)
      }
      return number
    }
  }
}
