import Foundation
import Loupe
import LoupeCore

/// `loupe-examples probe --secret TEXT`: a second store, `Vault#1`, that puts TEXT everywhere
/// a secret can hide, for the redaction tests (`Tests/ReliabilityTests/RedactionLeakTests`).
///
/// TEXT is held by a ``LoupeRedacted`` type (`password`, a credential's `password`, the
/// `signIn` action's payload, the error a failing effect throws), and in plain strings that
/// `LOUPE_REDACT='*token*,*Token*,notes["secret"],noteSaved.text'` hides: `apiToken`,
/// `credentials[id: 1].apiToken`, `session.signedIn.token`, `notes["secret"]`, and the
/// payloads of `tokenRefreshed` and `noteSaved`; the failing effect's error also spells the
/// token out in a text (`reason`). Each value is set and then changed, so `state.changed`
/// carries it as `old` and `new`.
struct VaultFeature: Reducer {
  struct Password: LoupeRedacted, Equatable, Sendable {
    var text: String
  }

  struct Credential: Identifiable, Equatable, Sendable {
    var id: Int
    var site: String
    var password: Password
    var apiToken: String
  }

  enum Session: Equatable, Sendable {
    case signedOut
    case signedIn(user: String, token: String)
  }

  struct State: Equatable {
    var user = ""
    var password = Password(text: "")
    var apiToken = ""
    var credentials: IdentifiedArrayOf<Credential> = []
    var notes = ["public": "hello"]
    var session = Session.signedOut
    var failures = 0
  }

  enum Action: Sendable {
    case signIn(user: String, password: Password)
    case tokenRefreshed(String)
    case noteSaved(key: String, text: String)
    case credentialAdded(Credential)
    case submit
    case submitFailed
  }

  /// What the sign-in effect throws: the password rides along, as real errors' payloads do,
  /// and the reason names the token (a text derived from a redacted value).
  struct AuthError: Error {
    var user: String
    var password: Password
    var reason: String
  }

  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .signIn(let user, let password):
      state.user = user
      state.password = password
      state.session = .signedIn(user: user, token: password.text)
      return .none
    case .tokenRefreshed(let token):
      state.apiToken = token
      return .none
    case .noteSaved(let key, let text):
      state.notes[key] = text
      return .none
    case .credentialAdded(let credential):
      state.credentials.append(credential)
      return .none
    case .submit:
      let (user, password, token) = (state.user, state.password, state.apiToken)
      return .run { _ in
        throw AuthError(user: user, password: password, reason: "token \(token) was refused")
      } catch: { _, send in
        await send(.submitFailed)
      }
    case .submitFailed:
      state.failures += 1
      return .none
    }
  }
}

/// Runs the vault's script: every secret set, then changed (old and new both secret), and a
/// sign-in effect that fails; returns once that failure has been reported.
@MainActor
enum ProbeVault {
  static func run(secret: String) async {
    let watcher = EffectEndWatcher(store: "Vault#1")
    EventBus.shared.attach(watcher)
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
      watcher.continuation.withLock { $0 = done }
      let store = Store(initialState: VaultFeature.State(), name: "Vault#1") { VaultFeature() }
      for round in 1...2 {
        let text = "\(secret)-\(round)"
        store.send(.signIn(user: "alice", password: .init(text: text)))
        store.send(.tokenRefreshed(text))
        store.send(.noteSaved(key: "secret", text: text))
        store.send(.credentialAdded(.init(id: round, site: "example.org", password: .init(text: text), apiToken: text)))
      }
      store.send(.submit)
      Self.store = store
    }
    EventBus.shared.detach(watcher)
  }

  /// Kept alive for `loupe/state`.
  static var store: Store<VaultFeature.State, VaultFeature.Action>?
}

/// Resumes a continuation at the first `effect.finished` of a store.
private final class EffectEndWatcher: EventSink, Sendable {
  let store: String
  let continuation = Lock<CheckedContinuation<Void, Never>?>(nil)

  init(store: String) { self.store = store }

  func receive(_ event: Event) {
    guard event.kind == EffectFinished.kind, event.store == store else { return }
    continuation.withLock { continuation in
      continuation?.resume()
      continuation = nil
    }
  }
}
