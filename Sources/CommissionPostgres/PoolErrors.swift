// The one file that imports an underscored module of postgres-nio. PostgresClient's pool fails a
// request that waits for a connection — the pool shut down, the request cancelled, no connection
// made for too long — with `ConnectionPoolError`, a public type of `_ConnectionPoolModule` that
// PostgresNIO does not re-export (checked against postgres-nio 1.33.2). The store only asks whether
// an error is one, to tell a database away from a refusal; when PostgresNIO exports the type (or
// wraps it in PSQLError), this file goes.
import _ConnectionPoolModule

extension PostgresBookDatabase {
    /// Whether `error` is the pool's own: the database away, not a refusal of the work.
    static func isPoolError(_ error: any Error) -> Bool { error is ConnectionPoolError }
}
