import CommissionCore
import CommissionStore
import Foundation
import PostgresNIO

/// The people of a book on a shared database: members, and one-time invitations that add more.
extension PostgresStore: TeamStore {
    public func members() async throws -> [Member] {
        try await readAccounts { connection in
            try await connection.query(
                """
                SELECT account.id, account.username, member.role FROM member JOIN account ON account.id = member.accountId
                WHERE member.bookId = \(book) ORDER BY member.role = 'owner' DESC, \(unescaped: Columns.byName("account.username"))
                """,
                logger: logger
            ).decode((Int64, String, String).self).all().map {
                Member(
                    account: Account(id: Account.ID($0.0), username: $0.1),
                    role: MemberRole(rawValue: $0.2) ?? .member
                )
            }
        }
    }

    public func role(of account: Account.ID) async throws -> MemberRole? {
        try await readAccounts { connection in
            try await connection.query(
                "SELECT role FROM member WHERE bookId = \(book) AND accountId = \(account.rawValue)",
                logger: logger
            )
            .decode(String.self).all().first.flatMap(MemberRole.init(rawValue:))
        }
    }

    public func createInvitation(
        tokenDigest: String,
        role: MemberRole,
        invitedBy: Account.ID?,
        expiresAt: Date
    ) async throws {
        try await accountWrite { connection in
            if let invitedBy {
                let inviter = try await connection.query(
                    "SELECT role FROM member WHERE bookId = \(book) AND accountId = \(invitedBy.rawValue)",
                    logger: logger
                ).decode(String.self).all().first
                guard inviter == MemberRole.owner.rawValue else {
                    throw StoreError.invalid(
                        field: "invitation",
                        reason: "only an owner of the book can invite people to it."
                    )
                }
            }
            try await connection.query(
                """
                INSERT INTO invitation (tokenDigest, bookId, invitedBy, role, expiresAt)
                VALUES (\(tokenDigest), \(book), \(invitedBy?.rawValue), \(role.rawValue), \(Int64(expiresAt.timeIntervalSince1970)))
                """,
                logger: logger
            )
        }
    }

    public func invitation(tokenDigest: String, now: Date) async throws -> Invitation? {
        try await readAccounts { connection in
            try await connection.query(
                """
                SELECT invitation.role, account.username, invitation.expiresAt, EXISTS (SELECT 1 FROM member WHERE bookId = \(book))
                FROM invitation LEFT JOIN account ON account.id = invitation.invitedBy
                WHERE invitation.bookId = \(book) AND invitation.tokenDigest = \(tokenDigest)
                  AND invitation.usedAt IS NULL AND invitation.expiresAt > \(Int64(now.timeIntervalSince1970))
                """,
                logger: logger
            ).decode((String, String?, Int64, Bool).self).all().first.map {
                var invitation = Invitation(
                    role: MemberRole(rawValue: $0.0) ?? .member,
                    invitedBy: $0.1,
                    expiresAt: Date(timeIntervalSince1970: TimeInterval($0.2))
                )
                invitation.isSpent = invitation.isOwnersLink && $0.3
                return invitation
            }
        }
    }

    public func acceptInvitation(
        tokenDigest: String,
        username: String,
        passwordHash: String,
        now: Date
    ) async throws -> Account {
        let name = try StoreInput.username(username)
        let seconds = Int64(now.timeIntervalSince1970)
        return try await accountWrite { connection in
            // Claiming the invitation first, in the same transaction, is what makes it one-time: a
            // second acceptance waits for this one's row lock and then finds it used.
            let claimed = try await connection.query(
                """
                UPDATE invitation SET usedAt = \(seconds)
                WHERE bookId = \(book) AND tokenDigest = \(tokenDigest) AND usedAt IS NULL AND expiresAt > \(seconds)
                RETURNING role, invitedBy IS NULL
                """,
                logger: logger
            ).decode((String, Bool).self).all().first
            guard let (role, byOperator) = claimed else {
                throw StoreError.invalid(
                    field: "invitation",
                    reason: "this link has been used or has expired; ask for a new one."
                )
            }
            if role == MemberRole.owner.rawValue && byOperator {
                // A new book's owner link adds its first account only; the book's row lock orders it
                // against set-up and against a second such link.
                try await connection.query("SELECT 1 FROM book WHERE id = \(book) FOR UPDATE", logger: logger)
                if try await int(connection, "SELECT count(*) FROM member WHERE bookId = \(book)") > 0 {
                    throw StoreError.invalid(field: "invitation", reason: Invitation.spentReason)
                }
            }
            if try await int(connection, "SELECT count(*) FROM account WHERE lower(username) = lower(\(name))") > 0 {
                throw StoreError.invalid(
                    field: "user name",
                    reason: "\"\(name)\" is taken on this server; choose another."
                )
            }
            let id = try await int(
                connection,
                """
                INSERT INTO account (username, passwordHash, createdAt) VALUES (\(name), \(passwordHash), \(seconds)) RETURNING id
                """
            )
            try await connection.query(
                "INSERT INTO member (bookId, accountId, role) VALUES (\(book), \(id), \(role))",
                logger: logger
            )
            try await connection.query(
                "UPDATE invitation SET accountId = \(id) WHERE tokenDigest = \(tokenDigest)",
                logger: logger
            )
            return Account(id: Account.ID(id), username: name)
        }
    }
}
