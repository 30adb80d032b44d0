import Observation

/// What SwiftUI views and `withObservationTracking` read of a store, so that a change
/// invalidates only the readers of what changed: `store.count` is invalidated when `count`
/// changes, not after every action.
///
/// Each member read (``Store/subscript(dynamicMember:)``) is tracked under its own key path
/// of the store, `\Store.[dynamicMember: \.count]`, with the value last seen; after an
/// action, each tracked member is compared with its new value (by `==` when the value is
/// `Equatable`, else it counts as changed) and only changed ones notify. Reading the whole
/// ``Store/state`` is tracked the same way, as one member.
@MainActor
final class StoreObservation<State> {
  struct Member {
    /// Registers an observer's read of the member's current value in `state`.
    let access: (State) -> Void
    /// Notifies the member's observers if it differs in `state` from the value last read.
    let update: (State) -> Void
  }

  /// Tracked members, by the state key path read.
  private var members: [AnyKeyPath: Member] = [:]

  func member(_ keyPath: AnyKeyPath) -> Member? { members[keyPath] }

  /// Tracks `keyPath`. A member is compared after an action only while armed: from a read
  /// until the change that notifies its observers (which the observation drops; reading it
  /// again arms it again). A store read once and never observed costs one comparison per
  /// member until its first change, not one per action forever.
  func track<Value>(
    _ keyPath: KeyPath<State, Value>, register: @escaping () -> Void, notify: @escaping () -> Void
  ) -> Member {
    var last: Value?
    let member = Member(
      access: { state in
        register()
        last = state[keyPath: keyPath]
      },
      update: { state in
        guard let seen = last else { return }
        let new = state[keyPath: keyPath]
        guard !ObservedEquality.equal(seen, new) else { return }
        last = nil
        notify()
      })
    members[keyPath] = member
    return member
  }

  /// Notifies the observers of the members that changed in `state`.
  func stateDidChange(_ state: State) {
    for member in members.values { member.update(state) }
  }
}

enum ObservedEquality {
  /// `a == b` when the values are `Equatable`; `false` (changed) otherwise.
  static func equal<Value>(_ a: Value, _ b: Value) -> Bool {
    guard let a = a as? any Equatable else { return false }
    return same(a, b)
  }

  private static func same<E: Equatable>(_ a: E, _ b: Any) -> Bool {
    guard let b = b as? E else { return false }
    return a == b
  }
}

extension Store {
  /// Registers an observer's read of `keyPath` (the whole state: `\State.self`) in `state`.
  func observeRead<Value>(_ keyPath: KeyPath<State, Value>, in state: State) {
    if observationSubscription == nil {
      // Observers can only exist once the state has been read: notify from then on.
      observationSubscription = subscribeToChanges(false) { [weak self] _, new, _ in
        self?.observation.stateDidChange(new)
      }
    }
    if let member = observation.member(keyPath) {
      member.access(state)
      return
    }
    // Made once per member: a key path of a generic class costs more to build than to look up.
    let storeKeyPath: KeyPath<Store, Value> =
      keyPath == \State.self ? stateKeyPath as! KeyPath<Store, Value> : \Store.[dynamicMember: keyPath]
    let member = observation.track(
      keyPath,
      register: { [unowned self] in registrar.access(self, keyPath: storeKeyPath) },
      notify: { [unowned self] in registrar.withMutation(of: self, keyPath: storeKeyPath) {} })
    member.access(state)
  }
}
