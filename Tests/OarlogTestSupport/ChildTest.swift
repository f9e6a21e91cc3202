import Foundation
import XCTest

extension XCTestCase {
    /// Runs the calling test again, alone, in a child process: the test binary with the filter
    /// `Module.Class/test`, behind `wrapper` (a command line that ends by running what follows it,
    /// as `unshare … sh -c '…; exec "$@"' sh` does), with `environment` added; the child knows
    /// itself by that environment. Fails the test (saying `where` it ran) if the child did not end
    /// within `timeout` seconds, did not pass, or did not run exactly that one test; returns what
    /// it printed (output and errors in one).
    @discardableResult
    public func rerunInChild(environment: [String: String], wrapper: [String] = [], timeout: TimeInterval,
                             where place: String = "its child process", function: String = #function,
                             file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let method = function.hasSuffix("()") ? String(function.dropLast(2)) : function
        // `Module.Class` of this test case, as XCTest's filter names it.
        let filter = "\(String(reflecting: type(of: self)))/\(method)"
        let command = wrapper + [Binaries.testRunner, filter]
        let run = try ChildProcess.run(command[0], Array(command.dropFirst()), environment: environment, mergingErrors: true,
                                       timeout: timeout)
        if run.timedOut {
            XCTFail("\(filter) did not finish within \(Int(timeout)) s", file: file, line: line)
        }
        if run.status != 0 || !run.out.contains("Executed 1 test, with 0 failures") {
            // The end of its log without the suites' and swift-testing's bookkeeping lines.
            let lines = run.out.split(separator: "\n").filter {
                !$0.hasPrefix("Test Suite") && !$0.contains("Testing Library") && !$0.hasPrefix("◇") && !$0.hasPrefix("↳")
            }
            XCTFail("\(filter) failed in \(place) (exit \(run.status)):\n" + lines.suffix(40).joined(separator: "\n"), file: file, line: line)
        }
        return run.out
    }
}
