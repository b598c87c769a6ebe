/// This release of Commission: what `commission --version` and the server's `Server` header say.
public enum CommissionRelease {
    /// The release, by the day it was cut (year.month.day); a book written by a later release may
    /// need that release to be read.
    public static let version = "2026.11.24"
}
