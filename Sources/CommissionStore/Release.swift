/// This release of Commission: what `commission --version`, Settings, `/health/ready` and the
/// server's `Commission-Release` header say. Each release is in CHANGELOG.md (its first heading is
/// this one: `DocumentationTests`) and tagged `v` + its name in git.
public enum CommissionRelease {
    /// The release, by the day it was cut (year.month.day); a book written by a later release may
    /// need that release to be read.
    public static let version = "2026.12.03"
}
