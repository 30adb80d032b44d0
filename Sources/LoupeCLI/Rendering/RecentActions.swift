/// The labels of the most recent actions by `seq`, so an effect or a cancellation can name the
/// action that caused it. Bounded: causes are nearly always recent, and memory must stay flat
/// on huge traces.
struct RecentActions {
  private var labels: [Int: String] = [:]
  private var order: [Int] = []
  private var next = 0
  let capacity: Int

  init(capacity: Int = 4096) {
    self.capacity = capacity
    order.reserveCapacity(capacity)
  }

  mutating func record(seq: Int, label: String) {
    if order.count < capacity {
      order.append(seq)
    } else {
      labels[order[next]] = nil
      order[next] = seq
      next = (next + 1) % capacity
    }
    labels[seq] = label
  }

  subscript(seq: Int) -> String? { labels[seq] }
}
