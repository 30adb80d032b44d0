import Testing

/// The reliability suites run one test at a time: each starts real processes (programs,
/// `loupe`), and running them side by side would only load the machine that the rest of the
/// package's tests, some with time windows of their own, run on too.
@Suite(.serialized) enum ReliabilitySuites {}
