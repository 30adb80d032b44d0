import LoupeCore

/// What `loupe dap` answers to `initialize`: only what it really does.
enum DAPCapabilities {
  /// The exception breakpoint filters: `warning` (every `warning` event) and each `loupe
  /// doctor` code that a single event shows (see ``DoctorSignals``).
  static let exceptionFilters: [(filter: String, label: String, description: String)] = [
    (DoctorSignals.warning, "Warnings", "Stop at every warning event (an action sent to an ended store, a missing child, ...)."),
    (
      DoctorSignals.crossStoreCancellation, "Effect cancelled by another store",
      "Stop where one store's action cancels another store's effect (seed 000's pitfall)."
    ),
    (
      DoctorSignals.effectOutlivedStore, "Effect outlived its store",
      "Stop where a store is destroyed while its effects still run."
    ),
    (
      DoctorSignals.identityChurn, "Identity churn",
      "Stop where a store's live identity is replaced (what the doctor counts as churn)."
    ),
    (
      DoctorSignals.derivedUnchanged, "Derived value recomputed, output unchanged",
      "Stop where a derived value recomputed and its output did not change."
    ),
    (
      DoctorSignals.sendToEndedStore, "Action sent to an ended store",
      "Stop where an action was sent to a store whose identity had ended."
    ),
    (DoctorSignals.droppedEvents, "Dropped events", "Stop where events were lost to a slow client or a full buffer."),
  ]

  static var json: JSON {
    let filters: [JSON] = exceptionFilters.map { filter in
      ["filter": .string(filter.filter), "label": .string(filter.label), "description": .string(filter.description), "default": false]
    }
    return [
      "supportsConfigurationDoneRequest": true,
      "supportsFunctionBreakpoints": true,
      "supportsConditionalBreakpoints": false,
      "supportsHitConditionalBreakpoints": false,
      "supportsEvaluateForHovers": true,
      "exceptionBreakpointFilters": .array(filters),
      "supportsStepBack": true,
      "supportsSetVariable": false,
      "supportsRestartFrame": false,
      "supportsGotoTargetsRequest": true,
      "supportsStepInTargetsRequest": false,
      "supportsCompletionsRequest": false,
      "supportsModulesRequest": false,
      "supportsRestartRequest": false,
      "supportsExceptionOptions": false,
      "supportsValueFormattingOptions": false,
      "supportsExceptionInfoRequest": false,
      "supportTerminateDebuggee": true,
      "supportSuspendDebuggee": false,
      "supportsDelayedStackTraceLoading": true,
      "supportsLoadedSourcesRequest": false,
      "supportsLogPoints": false,
      "supportsTerminateThreadsRequest": false,
      "supportsSetExpression": false,
      "supportsTerminateRequest": true,
      "supportsDataBreakpoints": true,
      "supportsReadMemoryRequest": false,
      "supportsDisassembleRequest": false,
      "supportsCancelRequest": false,
      "supportsBreakpointLocationsRequest": false,
      "supportsClipboardContext": false,
      "supportsSteppingGranularity": false,
      "supportsInstructionBreakpoints": false,
      "supportsExceptionFilterOptions": false,
      "supportsSingleThreadExecutionRequests": false,
    ]
  }
}
