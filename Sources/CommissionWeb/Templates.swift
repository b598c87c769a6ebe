// The pages' Mustache templates and static files, compiled into the binary: one file to deploy.
// Double mustaches escape HTML; triple mustaches are only used for HTML the server built itself.

enum Templates {
    static let all: [String: String] = [
        "layout": layout, "setup": setup, "login": login, "entry": entry, "dashboard": dashboard,
        "dashboard-body": dashboardBody, "sales": sales, "statement": statement, "payouts": payouts,
        "book": book, "settings": settings, "error": error, "transfer": transfer, "edit-sale": editSale, "invite": invite,
    ]

    static let layout = """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>{{title}} · Commission</title>
        <link rel="stylesheet" href="/static/app.css">
        <script src="/static/app.js" defer></script>
        </head>
        <body>
        {{#signedIn}}
        <header class="top">
          <nav aria-label="Main">
            <a href="/" {{#nav.entry}}aria-current="page"{{/nav.entry}}>Sale</a>
            <a href="/dashboard" {{#nav.dashboard}}aria-current="page"{{/nav.dashboard}}>Dashboard</a>
            <a href="/sales" {{#nav.sales}}aria-current="page"{{/nav.sales}}>Sales</a>
            <a href="/statements" {{#nav.statements}}aria-current="page"{{/nav.statements}}>Statements</a>
            <a href="/payouts" {{#nav.payouts}}aria-current="page"{{/nav.payouts}}>Payouts</a>
            <a href="/book" {{#nav.book}}aria-current="page"{{/nav.book}}>Clinics &amp; products</a>
            <a href="/transfer" {{#nav.transfer}}aria-current="page"{{/nav.transfer}}>Import &amp; export</a>
            <a href="/settings" {{#nav.settings}}aria-current="page"{{/nav.settings}}>Settings</a>
          </nav>
          <form method="post" action="/logout" class="logout"><input type="hidden" name="csrf" value="{{csrf}}"><button type="submit">Sign out</button></form>
        </header>
        {{/signedIn}}
        <main id="main">
        {{#message}}<p class="notice" role="status">{{message}}</p>{{/message}}
        {{#error}}<p class="error" role="alert">{{error}}</p>{{/error}}
        {{{body}}}
        </main>
        </body>
        </html>
        """

    static let setup = """
        <h1>Welcome to Commission</h1>
        <p>This book has no owner yet. Choose the name and password you will sign in with.</p>
        <form method="post" action="/setup" class="card">
          <input type="hidden" name="csrf" value="{{csrf}}">
          <label for="username">User name</label>
          <input id="username" name="username" autocomplete="username" required value="{{username}}">
          <label for="password">Password (at least 10 characters)</label>
          <input id="password" name="password" type="password" autocomplete="new-password" minlength="10" required>
          <button type="submit" class="primary">Create the owner account</button>
        </form>
        """

    static let invite = """
        <h1>Join Commission</h1>
        <p>{{#invitedBy}}{{invitedBy}} invites you{{/invitedBy}}{{^invitedBy}}You are invited{{/invitedBy}} to
        {{#isOwner}}own a book of your own on this server{{/isOwner}}{{^isOwner}}work in their book as a member{{/isOwner}}.
        Choose the name and password you will sign in with. This link works once, until {{expires}}.</p>
        <form method="post" action="{{action}}" class="card">
          <input type="hidden" name="csrf" value="{{csrf}}">
          <label for="username">User name</label>
          <input id="username" name="username" autocomplete="username" required value="{{username}}">
          <label for="password">Password (at least 10 characters)</label>
          <input id="password" name="password" type="password" autocomplete="new-password" minlength="10" required>
          <button type="submit" class="primary">Create my account</button>
        </form>
        """

    static let login = """
        <h1>Sign in</h1>
        <form method="post" action="/login" class="card">
          <input type="hidden" name="csrf" value="{{csrf}}">
          <label for="username">User name</label>
          <input id="username" name="username" autocomplete="username" required value="{{username}}">
          <label for="password">Password</label>
          <input id="password" name="password" type="password" autocomplete="current-password" required>
          <button type="submit" class="primary">Sign in</button>
        </form>
        """

    static let entry = """
        <h1 class="visually-hidden">New sale</h1>
        {{#noSetup}}<p class="notice">Add a clinic, a product and terms first: <a href="/book">Clinics &amp; products</a>.</p>{{/noSetup}}
        {{#hasMissedDays}}<p class="notice" id="missed">No sales entered on {{#missedDays}}<a href="/?date={{iso}}">{{label}}</a>{{^last}}, {{/last}}{{/missedDays}} — days you usually work.</p>{{/hasMissedDays}}
        <form method="post" action="/sales" class="entry" id="sale-form">
          <input type="hidden" name="csrf" value="{{csrf}}">
          <input type="hidden" name="key" value="{{key}}">
          <label for="clinic">Clinic</label>
          <select id="clinic" name="clinic">
            {{#clinics}}<option value="{{id}}" {{#selected}}selected{{/selected}}>{{name}}</option>{{/clinics}}
          </select>
          <fieldset class="products">
            <legend>Product</legend>
            <input type="search" id="product-search" aria-label="Search products" placeholder="Search products">
            <div class="product-list">
            {{#products}}
              <label class="product"><input type="radio" name="product" value="{{id}}" data-price="{{price}}" {{#selected}}checked{{/selected}}> <span>{{name}}</span> <span class="price">{{price}}</span></label>
            {{/products}}
            </div>
          </fieldset>
          <div class="row">
            <div>
              <label for="quantity">Quantity</label>
              <div class="stepper">
                <button type="button" data-step="-1" aria-label="One less">−</button>
                <input id="quantity" name="quantity" type="number" inputmode="numeric" value="1" step="1" required>
                <button type="button" data-step="1" aria-label="One more">+</button>
              </div>
            </div>
            <div>
              <label for="price">Unit price</label>
              <input id="price" name="price" inputmode="decimal" autocomplete="off" value="{{selectedPrice}}" placeholder="product's price">
            </div>
          </div>
          <details>
            <summary>Date, discount, note</summary>
            <label for="date">Date</label>
            <input id="date" name="date" type="date" value="{{date}}" required>
            <label for="discount">Discount</label>
            <input id="discount" name="discount" inputmode="decimal" autocomplete="off" placeholder="0.00">
            <label for="note">Note</label>
            <input id="note" name="note" maxlength="1000">
            <label class="check"><input type="checkbox" name="noCommission" value="1"> No commission (sample, personal use)</label>
          </details>
          <button type="submit" class="primary save" id="save">Save sale</button>
        </form>
        <section aria-labelledby="recent-title">
          <h2 id="recent-title">Recent sales</h2>
          <ul class="recent">
          {{#recent}}
            <li><span>{{date}} · {{clinic}} · {{quantity}} × {{product}} · {{commission}}</span>
              <form method="post" action="/sales/{{id}}/repeat"><input type="hidden" name="csrf" value="{{csrf}}"><button type="submit">Repeat</button></form></li>
          {{/recent}}
          {{^recent}}<li>No sales yet.</li>{{/recent}}
          </ul>
        </section>
        """

    static let dashboard = """
        <h1>Dashboard</h1>
        <div id="dashboard" data-live="/events">{{{dashboardBody}}}</div>
        """

    static let dashboardBody = """
        <p class="muted">{{today}} · {{currency}} · <span id="live-status">live</span></p>
        <div class="tiles">
          <div class="tile"><h2>Today</h2><p class="big" id="today-commission">{{todayCommission}}</p><p>{{todaySales}} sales · revenue {{todayRevenue}}</p></div>
          <div class="tile"><h2>This month</h2><p class="big">{{monthCommission}}</p><p>{{monthSales}} sales · revenue {{monthRevenue}}</p></div>
          <div class="tile"><h2>Year to date</h2><p class="big">{{yearCommission}}</p><p>{{yearSales}} sales · revenue {{yearRevenue}}</p></div>
        </div>
        <h2>Current pay periods</h2>
        <div class="scroll"><table>
          <thead><tr><th scope="col">Clinic</th><th scope="col">Period</th><th scope="col" class="num">Sales</th><th scope="col" class="num">Expected</th><th scope="col" class="num">Received</th><th scope="col" class="num">Balance</th><th scope="col" class="num">Year to date</th></tr></thead>
          <tbody>
          {{#clinics}}<tr><td>{{name}}</td><td>{{period}}</td><td class="num">{{sales}}</td><td class="num">{{expected}}</td><td class="num">{{received}}</td><td class="num">{{balance}}</td><td class="num">{{year}}</td></tr>{{/clinics}}
          </tbody>
        </table></div>
        <h2>Commission per month</h2>
        {{{monthlyChart}}}
        <h2>Share by clinic this year</h2>
        {{{shareChart}}}
        <h2>Products this year</h2>
        <div class="scroll"><table>
          <thead><tr><th scope="col">Product</th><th scope="col" class="num">Units</th><th scope="col" class="num">Revenue</th><th scope="col" class="num">Commission</th></tr></thead>
          <tbody>{{#products}}<tr><td>{{name}}</td><td class="num">{{units}}</td><td class="num">{{revenue}}</td><td class="num">{{commission}}</td></tr>{{/products}}</tbody>
        </table></div>
        """

    static let sales = """
        <h1>Sales</h1>
        <form method="get" action="/sales" class="filters">
          <label for="f-clinic">Clinic</label>
          <select id="f-clinic" name="clinic"><option value="">All</option>{{#clinics}}<option value="{{id}}" {{#selected}}selected{{/selected}}>{{name}}</option>{{/clinics}}</select>
          <label for="f-product">Product</label>
          <select id="f-product" name="product"><option value="">All</option>{{#products}}<option value="{{id}}" {{#selected}}selected{{/selected}}>{{name}}</option>{{/products}}</select>
          <label for="f-from">From</label><input id="f-from" name="from" type="date" value="{{from}}">
          <label for="f-to">To</label><input id="f-to" name="to" type="date" value="{{to}}">
          <label for="f-q">Search</label><input id="f-q" name="q" value="{{q}}">
          <button type="submit">Filter</button>
        </form>
        <div class="scroll"><table>
          <thead><tr><th scope="col">Date</th><th scope="col">Clinic</th><th scope="col">Product</th><th scope="col" class="num">Qty</th><th scope="col" class="num">Revenue</th><th scope="col" class="num">Commission</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
          <tbody>
          {{#sales}}<tr><td>{{date}}</td><td>{{clinic}}</td><td>{{product}}{{#note}} <span class="muted">· {{note}}</span>{{/note}}</td><td class="num">{{quantity}}</td><td class="num">{{revenue}}</td><td class="num">{{commission}}</td>
            <td><a href="/sales/{{id}}/edit" aria-label="Edit sale {{id}}">Edit</a>
              <form method="post" action="/sales/{{id}}/void" class="inline"><input type="hidden" name="csrf" value="{{csrf}}"><button type="submit" aria-label="Void sale {{id}}">Void</button></form></td></tr>{{/sales}}
          {{^sales}}<tr><td colspan="7">No sales match.</td></tr>{{/sales}}
          </tbody>
        </table></div>
        <p class="pager">{{total}} sales. {{#previous}}<a href="{{previous}}">← Newer</a>{{/previous}} {{#next}}<a href="{{next}}">Older →</a>{{/next}}</p>
        """

    static let statement = """
        <h1>Statement</h1>
        <form method="get" action="/statements" class="filters no-print">
          <label for="s-clinic">Clinic</label>
          <select id="s-clinic" name="clinic">{{#clinics}}<option value="{{id}}" {{#selected}}selected{{/selected}}>{{name}}</option>{{/clinics}}</select>
          <label for="s-date">A day in the period</label><input id="s-date" name="date" type="date" value="{{date}}">
          <button type="submit">Show</button>
        </form>
        {{#statement}}
        <h2>{{clinic}} · {{period}}{{#closed}} · closed{{/closed}}</h2>
        <p class="no-print"><a href="{{previousLink}}">← Previous period</a> · <a href="{{nextLink}}">Next period →</a> · <a href="{{csvLink}}" download>Download CSV</a></p>
        <div class="scroll"><table>
          <thead><tr><th scope="col">Date</th><th scope="col">Product</th><th scope="col" class="num">Qty</th><th scope="col" class="num">Price</th><th scope="col" class="num">Discount</th><th scope="col" class="num">Revenue</th><th scope="col" class="num">Profit</th><th scope="col" class="num">Share</th><th scope="col" class="num">Commission</th></tr></thead>
          <tbody>{{#lines}}<tr><td>{{date}}</td><td>{{product}}</td><td class="num">{{quantity}}</td><td class="num">{{price}}</td><td class="num">{{discount}}</td><td class="num">{{revenue}}</td><td class="num">{{profit}}</td><td class="num">{{share}}</td><td class="num">{{commission}}</td></tr>{{/lines}}
          {{^lines}}<tr><td colspan="9">No sales in this period.</td></tr>{{/lines}}</tbody>
          <tfoot>
            <tr><th scope="row" colspan="5">Total</th><td class="num">{{revenue}}</td><td class="num">{{profit}}</td><td></td><td class="num" id="statement-commission">{{commission}}</td></tr>
            <tr><th scope="row" colspan="8">Received</th><td class="num">{{received}}</td></tr>
            <tr><th scope="row" colspan="8">Balance</th><td class="num" id="statement-balance">{{balance}}</td></tr>
          </tfoot>
        </table></div>
        {{/statement}}
        """

    static let payouts = """
        <h1>Payouts &amp; reconciliation</h1>
        <form method="post" action="/payouts" class="card">
          <input type="hidden" name="csrf" value="{{csrf}}">
          <label for="p-clinic">Clinic</label>
          <select id="p-clinic" name="clinic">{{#clinics}}<option value="{{id}}">{{name}}</option>{{/clinics}}</select>
          <label for="p-period">A day in the period paid for</label><input id="p-period" name="period" type="date" value="{{previousDay}}" required>
          <label for="p-amount">Amount received</label><input id="p-amount" name="amount" inputmode="decimal" required autocomplete="off">
          <label for="p-received">Received on</label><input id="p-received" name="received" type="date" value="{{today}}" required>
          <label for="p-reference">Reference</label><input id="p-reference" name="reference">
          <button type="submit" class="primary">Record payout</button>
        </form>
        {{#reconciliations}}
        <h2>{{clinic}} <span class="muted">· owes {{balance}}</span></h2>
        <div class="scroll"><table>
          <thead><tr><th scope="col">Period</th><th scope="col" class="num">Expected</th><th scope="col" class="num">Received</th><th scope="col" class="num">Difference</th><th scope="col" class="num">Balance</th><th scope="col">Status</th></tr></thead>
          <tbody>{{#periods}}<tr class="{{#attention}}attention{{/attention}}"><td>{{period}}</td><td class="num">{{expected}}</td><td class="num">{{received}}</td><td class="num">{{difference}}</td><td class="num">{{balance}}</td><td class="status">{{status}}{{#attention}} ⚠{{/attention}}</td></tr>{{/periods}}</tbody>
        </table></div>
        {{/reconciliations}}
        """

    static let book = """
        <h1>Clinics &amp; products</h1>
        <section class="card">
          <h2>Clinics</h2>
          <ul>{{#clinics}}<li>{{name}} <span class="muted">· paid {{schedule}}</span></li>{{/clinics}}{{^clinics}}<li>None yet.</li>{{/clinics}}</ul>
          <form method="post" action="/clinics">
            <input type="hidden" name="csrf" value="{{csrf}}">
            <label for="c-name">Name</label><input id="c-name" name="name" required>
            <label for="c-schedule">Pay schedule</label>
            <input id="c-schedule" name="schedule" value="monthly" required aria-describedby="c-schedule-help">
            <p id="c-schedule-help" class="muted">monthly, semimonthly, weekly:monday, or biweekly:2026-01-02</p>
            <button type="submit">Add clinic</button>
          </form>
        </section>
        <section class="card">
          <h2>Products</h2>
          <ul>{{#products}}<li>{{name}} <span class="muted">· {{price}} (cost {{cost}})</span></li>{{/products}}{{^products}}<li>None yet.</li>{{/products}}</ul>
          <form method="post" action="/products">
            <input type="hidden" name="csrf" value="{{csrf}}">
            <label for="pr-name">Name</label><input id="pr-name" name="name" required>
            <label for="pr-price">Unit price</label><input id="pr-price" name="price" inputmode="decimal" required autocomplete="off">
            <label for="pr-cost">Unit cost</label><input id="pr-cost" name="cost" inputmode="decimal" value="0.00" autocomplete="off">
            <button type="submit">Add product</button>
          </form>
        </section>
        <section class="card">
          <h2>Terms</h2>
          <ul>{{#terms}}<li>{{clinic}}{{#product}} · {{product}}{{/product}}: {{share}}% of {{basis}} from {{from}}</li>{{/terms}}{{^terms}}<li>None yet.</li>{{/terms}}</ul>
          <form method="post" action="/terms">
            <input type="hidden" name="csrf" value="{{csrf}}">
            <label for="t-clinic">Clinic</label>
            <select id="t-clinic" name="clinic">{{#clinics}}<option value="{{id}}">{{name}}</option>{{/clinics}}</select>
            <label for="t-product">Only for product</label>
            <select id="t-product" name="product"><option value="">All products</option>{{#products}}<option value="{{id}}">{{name}}</option>{{/products}}</select>
            <label for="t-share">Share (%)</label><input id="t-share" name="share" inputmode="decimal" required>
            <label for="t-basis">Basis</label>
            <select id="t-basis" name="basis"><option value="profit">profit</option><option value="revenue">revenue</option></select>
            <label for="t-from">Effective from</label><input id="t-from" name="from" type="date" value="{{today}}" required>
            <button type="submit">Add terms</button>
          </form>
        </section>
        """

    static let settings = """
        <h1>Settings</h1>
        <section class="card">
          <h2>Book</h2>
          {{^isOwner}}<p class="muted">{{currency}} · {{timeZone}}. Only an owner of the book changes its settings.</p>{{/isOwner}}
          {{#isOwner}}<form method="post" action="/settings/book">
            <input type="hidden" name="csrf" value="{{csrf}}">
            <label for="currency">Currency (ISO code; fixed once amounts are recorded)</label><input id="currency" name="currency" value="{{currency}}" maxlength="3" required>
            <label for="time-zone">Time zone</label><input id="time-zone" name="timeZone" value="{{timeZone}}" required>
            <label for="rule">Rounding</label>
            <select id="rule" name="rule"><option value="half-away-from-zero" {{#awayFromZero}}selected{{/awayFromZero}}>half away from zero (a spreadsheet's ROUND)</option><option value="half-to-even" {{^awayFromZero}}selected{{/awayFromZero}}>half to even</option></select>
            <label for="scope">Round</label>
            <select id="scope" name="scope"><option value="per-line" {{#perLine}}selected{{/perLine}}>each sale line</option><option value="per-statement" {{^perLine}}selected{{/perLine}}>once per statement</option></select>
            <button type="submit">Save settings</button>
          </form>{{/isOwner}}
        </section>
        <section class="card">
          <h2>People</h2>
          <ul id="members">{{#members}}<li>{{username}} <span class="muted">· {{role}}</span></li>{{/members}}</ul>
          {{#newInvitation}}<p class="notice" role="status">Send this link to the person you invite; it works once, for 7 days: <code id="new-invitation">{{newInvitation}}</code></p>{{/newInvitation}}
          {{#isOwner}}<form method="post" action="/settings/invitations">
            <input type="hidden" name="csrf" value="{{csrf}}">
            <label for="invite-role">Invite as</label>
            <select id="invite-role" name="role"><option value="member">member: records sales and sees the whole book</option><option value="owner">owner: also invites people and changes the settings</option></select>
            <button type="submit">Create an invitation link</button>
          </form>{{/isOwner}}
        </section>
        <section class="card">
          <h2>API tokens</h2>
          {{#newToken}}<p class="notice" role="status">New token (shown once): <code id="new-token">{{newToken}}</code></p>{{/newToken}}
          <ul>{{#tokens}}<li>{{name}} <span class="muted">· created {{created}}</span>
            <form method="post" action="/settings/tokens/{{id}}/revoke" class="inline"><input type="hidden" name="csrf" value="{{csrf}}"><button type="submit">Revoke</button></form></li>{{/tokens}}
          {{^tokens}}<li>No tokens.</li>{{/tokens}}</ul>
          <form method="post" action="/settings/tokens">
            <input type="hidden" name="csrf" value="{{csrf}}">
            <label for="token-name">Name</label><input id="token-name" name="name" required placeholder="laptop script">
            <button type="submit">Create token</button>
          </form>
        </section>
        <section class="card">
          <h2>Password</h2>
          <form method="post" action="/settings/password">
            <input type="hidden" name="csrf" value="{{csrf}}">
            <label for="current">Current password</label><input id="current" name="current" type="password" autocomplete="current-password" required>
            <label for="new">New password (at least 10 characters)</label><input id="new" name="new" type="password" autocomplete="new-password" minlength="10" required>
            <button type="submit">Change password</button>
          </form>
        </section>
        """

    static let editSale = """
        <h1>Edit sale {{id}}</h1>
        <form method="post" action="/sales/{{id}}" class="card">
          <input type="hidden" name="csrf" value="{{csrf}}">
          <label for="e-clinic">Clinic</label>
          <select id="e-clinic" name="clinic">{{#clinics}}<option value="{{id}}" {{#selected}}selected{{/selected}}>{{name}}</option>{{/clinics}}</select>
          <label for="e-product">Product</label>
          <select id="e-product" name="product">{{#products}}<option value="{{id}}" {{#selected}}selected{{/selected}}>{{name}}</option>{{/products}}</select>
          <label for="e-date">Date</label><input id="e-date" name="date" type="date" value="{{date}}" required>
          <label for="e-quantity">Quantity</label><input id="e-quantity" name="quantity" type="number" inputmode="numeric" value="{{quantity}}" required>
          <label for="e-price">Unit price</label><input id="e-price" name="price" inputmode="decimal" value="{{price}}" autocomplete="off" required>
          <label for="e-cost">Unit cost</label><input id="e-cost" name="cost" inputmode="decimal" value="{{cost}}" autocomplete="off" required>
          <label for="e-discount">Discount</label><input id="e-discount" name="discount" inputmode="decimal" value="{{discount}}" autocomplete="off">
          <label for="e-note">Note</label><input id="e-note" name="note" value="{{note}}" maxlength="1000">
          <label class="check"><input type="checkbox" name="noCommission" value="1" {{#noCommission}}checked{{/noCommission}}> No commission</label>
          <button type="submit" class="primary">Save changes</button>
        </form>
        <section class="card">
          <h2>History</h2>
          <ol id="history" class="history">{{#history}}<li><span class="muted">{{at}} · {{actor}}</span> <strong>{{action}}</strong> {{changes}}</li>{{/history}}</ol>
          {{^history}}<p class="muted">No change on record.</p>{{/history}}
        </section>
        """

    static let transfer = """
        <h1>Import &amp; export</h1>
        <section class="card">
          <h2>Import a CSV file</h2>
          <p class="muted">Clinics, products, terms or sales, as a spreadsheet exports them. Any bad row means nothing is imported.</p>
          <form method="post" action="/import" id="import-form">
            <input type="hidden" name="csrf" value="{{csrf}}">
            <label for="csv-file">CSV file</label>
            <input type="file" id="csv-file" accept=".csv,text/csv,text/plain">
            <label for="csv">…or paste it here</label>
            <textarea id="csv" name="csv" rows="6" spellcheck="false">{{csv}}</textarea>
            <label for="kind">It holds</label>
            <select id="kind" name="kind"><option value="">(tell from the headers)</option><option value="clinics">clinics</option><option value="products">products</option><option value="terms">terms</option><option value="sales">sales</option></select>
            <label class="check"><input type="checkbox" name="decimalComma" value="1"> Amounts use a decimal comma (12,50)</label>
            <div class="row">
              <button type="submit" name="action" value="preview">Check only</button>
              <button type="submit" name="action" value="commit" class="primary">Import</button>
            </div>
          </form>
          {{#hasProblems}}
          <div class="scroll"><table id="import-problems">
            <thead><tr><th scope="col">Line</th><th scope="col">Column</th><th scope="col">Problem</th></tr></thead>
            <tbody>{{#problems}}<tr><td>{{line}}</td><td>{{column}}</td><td>{{reason}}</td></tr>{{/problems}}</tbody>
          </table></div>
          {{/hasProblems}}
        </section>
        <section class="card">
          <h2>Export</h2>
          <ul>
          {{#kinds}}<li>{{name}}: <a href="/export/{{name}}.csv" download>CSV</a> · <a href="/export/{{name}}.json" download>JSON</a></li>{{/kinds}}
          </ul>
          {{#backup}}<p><a href="/export/backup.sqlite" download>Download a backup of the whole book</a> (an SQLite file that <code>commission restore</code> reads).</p>{{/backup}}
        </section>
        """

    static let error = """
        <h1>{{title}}</h1>
        <p>{{detail}}</p>
        <p><a href="/">Back to Commission</a></p>
        """

    static let css = """
        :root { --fg: #1b1f24; --muted: #57606a; --bg: #ffffff; --accent: #0b5cad; --line: #d0d7de; --warn: #8a4b00; --bad: #a40e26; --ok: #116329; }
        * { box-sizing: border-box; }
        body { margin: 0; font: 16px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); background: var(--bg); }
        main { padding: 0.75rem; max-width: 64rem; margin: 0 auto; }
        header.top { display: flex; flex-wrap: wrap; align-items: center; gap: 0.25rem; padding: 0.25rem 0.5rem; border-bottom: 1px solid var(--line); }
        header.top nav { display: flex; flex-wrap: wrap; gap: 0.25rem 0.75rem; flex: 1; }
        header.top a { color: var(--accent); text-decoration: none; padding: 0.35rem 0; }
        header.top a[aria-current="page"] { font-weight: 700; text-decoration: underline; }
        h1 { font-size: 1.4rem; margin: 0.5rem 0; } h2 { font-size: 1.1rem; margin: 1rem 0 0.5rem; }
        label { display: block; font-weight: 600; margin-top: 0.5rem; }
        input, select, button { font: inherit; }
        input, select, textarea { width: 100%; padding: 0.55rem; border: 1px solid #8c959f; border-radius: 6px; background: #fff; color: var(--fg); }
        input[type="checkbox"], input[type="radio"] { width: auto; }
        button { padding: 0.55rem 0.9rem; border: 1px solid #8c959f; border-radius: 6px; background: #f6f8fa; color: var(--fg); cursor: pointer; }
        button.primary { background: var(--accent); color: #fff; border-color: var(--accent); font-weight: 700; width: 100%; padding: 0.8rem; margin-top: 0.75rem; }
        :focus-visible { outline: 3px solid #f0b400; outline-offset: 2px; }
        .row { display: grid; grid-template-columns: 1fr 1fr; gap: 0.75rem; }
        .stepper { display: grid; grid-template-columns: 3rem 1fr 3rem; gap: 0.25rem; }
        .stepper button { font-size: 1.3rem; padding: 0.3rem; }
        fieldset.products { border: 1px solid var(--line); border-radius: 6px; margin: 0.75rem 0 0; padding: 0.5rem; }
        .product-list { max-height: 13.5rem; overflow-y: auto; }
        label.product { display: flex; gap: 0.5rem; align-items: center; font-weight: 400; margin: 0; padding: 0.55rem 0.25rem; border-bottom: 1px solid #eaeef2; }
        label.product .price { margin-left: auto; color: var(--muted); }
        label.product[hidden] { display: none; }
        label.check { font-weight: 400; }
        details { margin-top: 0.75rem; } summary { cursor: pointer; color: var(--accent); }
        .notice { background: #ddf4ff; border: 1px solid #54aeff; padding: 0.5rem 0.75rem; border-radius: 6px; }
        .error { background: #ffebe9; border: 1px solid #ff8182; color: var(--bad); padding: 0.5rem 0.75rem; border-radius: 6px; }
        .muted { color: var(--muted); }
        .recent { list-style: none; padding: 0; } .recent li { display: flex; justify-content: space-between; align-items: center; gap: 0.5rem; padding: 0.35rem 0; border-bottom: 1px solid #eaeef2; }
        .tiles { display: grid; grid-template-columns: repeat(auto-fit, minmax(10rem, 1fr)); gap: 0.75rem; }
        .tile { border: 1px solid var(--line); border-radius: 8px; padding: 0.5rem 0.75rem; } .tile h2 { margin: 0; font-size: 0.95rem; color: var(--muted); }
        .big { font-size: 1.6rem; font-weight: 700; margin: 0.25rem 0; }
        .scroll { overflow-x: auto; }
        table { border-collapse: collapse; width: 100%; font-size: 0.95rem; }
        th, td { text-align: left; padding: 0.35rem 0.5rem; border-bottom: 1px solid #eaeef2; white-space: nowrap; }
        .num { text-align: right; font-variant-numeric: tabular-nums; }
        tr.attention td { background: #fff8c5; } tr.attention .status { color: var(--warn); font-weight: 700; }
        .card { border: 1px solid var(--line); border-radius: 8px; padding: 0.75rem; margin: 0.75rem 0; }
        .filters { display: grid; grid-template-columns: repeat(auto-fit, minmax(9rem, 1fr)); gap: 0.25rem 0.75rem; align-items: end; }
        form.inline { display: inline; } form.logout button { padding: 0.3rem 0.6rem; }
        svg.chart { width: 100%; height: auto; max-width: 48rem; } svg.chart text { font-size: 11px; fill: var(--fg); }
        .visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
        @media print { header.top, .no-print, form { display: none; } main { max-width: none; } }
        """

    static let javascript = """
        // Commission's only script: small enhancements; every form works without it.
        (function () {
          "use strict";
          function $(selector, root) { return (root || document).querySelector(selector); }
          function all(selector, root) { return Array.prototype.slice.call((root || document).querySelectorAll(selector)); }

          // Quantity stepper.
          all("[data-step]").forEach(function (button) {
            button.addEventListener("click", function () {
              var input = $("#quantity");
              var next = (parseInt(input.value, 10) || 0) + parseInt(button.getAttribute("data-step"), 10);
              if (next === 0) { next += parseInt(button.getAttribute("data-step"), 10); }
              input.value = String(next);
            });
          });

          // Choosing a product puts its price in the price field, exactly as the server wrote it.
          all("input[name=product]").forEach(function (radio) {
            radio.addEventListener("change", function () {
              var price = $("#price");
              if (price) { price.value = radio.getAttribute("data-price"); }
            });
          });

          // Product search.
          var search = $("#product-search");
          if (search) {
            search.addEventListener("input", function () {
              var text = search.value.trim().toLowerCase();
              all("label.product").forEach(function (label) {
                label.hidden = text !== "" && label.textContent.toLowerCase().indexOf(text) < 0;
              });
            });
          }

          // A chosen CSV file is read into the text area, so the form posts it as text.
          var file = $("#csv-file");
          if (file && window.FileReader) {
            file.addEventListener("change", function () {
              if (!file.files.length) { return; }
              var reader = new FileReader();
              reader.onload = function () { $("#csv").value = reader.result; };
              reader.readAsText(file.files[0]);
            });
          }

          // A live dashboard: the server pushes an event after every committed change; we fetch the new body.
          var dashboard = $("#dashboard[data-live]");
          if (dashboard && window.EventSource) {
            var refreshing = false, again = false;
            function refresh() {
              if (refreshing) { again = true; return; }
              refreshing = true;
              fetch("/dashboard?fragment=1", { credentials: "same-origin" })
                .then(function (response) { return response.ok ? response.text() : Promise.reject(response.status); })
                .then(function (html) { dashboard.innerHTML = html; })
                .catch(function () {})
                .then(function () { refreshing = false; if (again) { again = false; refresh(); } });
            }
            var source = new EventSource(dashboard.getAttribute("data-live"));
            // The first event may already differ from what was rendered: every event refreshes.
            source.addEventListener("dashboard", refresh);
          }
        })();
        """
}
