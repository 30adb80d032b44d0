import LoupeCore

/// The labels of the most recent actions by `seq`, so an effect or a cancellation can name the
/// action that caused it. Bounded: causes are nearly always recent, and memory must stay flat
/// on huge traces.
package struct RecentActions {
  private var labels: [Int: String] = [:]
  private var order: [Int] = []
  private var next = 0
  package let capacity: Int

  package init(capacity: Int = 4096) {
    self.capacity = capacity
    order.reserveCapacity(capacity)
  }

  package mutating func record(seq: Int, label: String) {
    if order.count < capacity {
      order.append(seq)
    } else {
      labels[order[next]] = nil
      order[next] = seq
      next = (next + 1) % capacity
    }
    labels[seq] = label
  }

  package subscript(seq: Int) -> String? { labels[seq] }
}
