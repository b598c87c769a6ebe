--
-- PostgreSQL database dump
--

\restrict YE6ZWB2y8ytrY3QnsYRZUtRtNYelzgGe0Q3nHtq3FXKPbuH4b1dfGwKfOiu5C1d

-- Dumped from database version 15.18 (Debian 15.18-0+deb12u1)
-- Dumped by pg_dump version 15.18 (Debian 15.18-0+deb12u1)

SET statement_timeout = 0;
SET lock_timeout = 0;
SET idle_in_transaction_session_timeout = 0;
SET client_encoding = 'UTF8';
SET standard_conforming_strings = on;
SELECT pg_catalog.set_config('search_path', '', false);
SET check_function_bodies = false;
SET xmloption = content;
SET client_min_messages = warning;
SET row_security = off;

--
-- Name: commission_audit_append_only(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.commission_audit_append_only() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    RAISE EXCEPTION 'the audit log is append-only';
END
$$;


--
-- Name: commission_summaries_after_delete(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.commission_summaries_after_delete() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    INSERT INTO clinicDayTotal AS t (bookId, clinicId, date, saleCount, quantity, revenueMinor, costMinor, profitMinor, commissionMinor, commissionExact)
    SELECT bookId, clinicId, date, sum(saleCount)::bigint, sum(quantity)::bigint, sum(revenueMinor)::bigint, sum(costMinor)::bigint, sum(profitMinor)::bigint, sum(commissionMinor)::bigint, sum(commissionExact)::bigint
    FROM (SELECT bookId, clinicId AS clinicId, date AS date, -1 AS saleCount, -1 * quantity AS quantity, -1 * revenueMinor AS revenueMinor, -1 * costMinor AS costMinor, -1 * profitMinor AS profitMinor, -1 * commissionMinor AS commissionMinor, -1 * commissionExact AS commissionExact
FROM old_rows WHERE NOT isVoided) AS moved
    GROUP BY bookId, clinicId, date
    ON CONFLICT (bookId, clinicId, date) DO UPDATE SET
        saleCount = t.saleCount + excluded.saleCount,
        quantity = t.quantity + excluded.quantity, revenueMinor = t.revenueMinor + excluded.revenueMinor, costMinor = t.costMinor + excluded.costMinor, profitMinor = t.profitMinor + excluded.profitMinor, commissionMinor = t.commissionMinor + excluded.commissionMinor, commissionExact = t.commissionExact + excluded.commissionExact;
DELETE FROM clinicDayTotal AS t USING (SELECT DISTINCT bookId, clinicId AS clinicId, date AS date FROM old_rows) AS k
WHERE t.saleCount = 0 AND t.bookId = k.bookId AND t.clinicId = k.clinicId AND t.date = k.date;
    INSERT INTO clinicMonthTotal AS t (bookId, clinicId, month, saleCount, quantity, revenueMinor, costMinor, profitMinor, commissionMinor, commissionExact)
    SELECT bookId, clinicId, month, sum(saleCount)::bigint, sum(quantity)::bigint, sum(revenueMinor)::bigint, sum(costMinor)::bigint, sum(profitMinor)::bigint, sum(commissionMinor)::bigint, sum(commissionExact)::bigint
    FROM (SELECT bookId, clinicId AS clinicId, date_trunc('month', date)::date AS month, -1 AS saleCount, -1 * quantity AS quantity, -1 * revenueMinor AS revenueMinor, -1 * costMinor AS costMinor, -1 * profitMinor AS profitMinor, -1 * commissionMinor AS commissionMinor, -1 * commissionExact AS commissionExact
FROM old_rows WHERE NOT isVoided) AS moved
    GROUP BY bookId, clinicId, month
    ON CONFLICT (bookId, clinicId, month) DO UPDATE SET
        saleCount = t.saleCount + excluded.saleCount,
        quantity = t.quantity + excluded.quantity, revenueMinor = t.revenueMinor + excluded.revenueMinor, costMinor = t.costMinor + excluded.costMinor, profitMinor = t.profitMinor + excluded.profitMinor, commissionMinor = t.commissionMinor + excluded.commissionMinor, commissionExact = t.commissionExact + excluded.commissionExact;
DELETE FROM clinicMonthTotal AS t USING (SELECT DISTINCT bookId, clinicId AS clinicId, date_trunc('month', date)::date AS month FROM old_rows) AS k
WHERE t.saleCount = 0 AND t.bookId = k.bookId AND t.clinicId = k.clinicId AND t.month = k.month;
    INSERT INTO productMonthTotal AS t (bookId, productId, month, saleCount, quantity, revenueMinor, costMinor, profitMinor, commissionMinor, commissionExact)
    SELECT bookId, productId, month, sum(saleCount)::bigint, sum(quantity)::bigint, sum(revenueMinor)::bigint, sum(costMinor)::bigint, sum(profitMinor)::bigint, sum(commissionMinor)::bigint, sum(commissionExact)::bigint
    FROM (SELECT bookId, productId AS productId, date_trunc('month', date)::date AS month, -1 AS saleCount, -1 * quantity AS quantity, -1 * revenueMinor AS revenueMinor, -1 * costMinor AS costMinor, -1 * profitMinor AS profitMinor, -1 * commissionMinor AS commissionMinor, -1 * commissionExact AS commissionExact
FROM old_rows WHERE NOT isVoided) AS moved
    GROUP BY bookId, productId, month
    ON CONFLICT (bookId, productId, month) DO UPDATE SET
        saleCount = t.saleCount + excluded.saleCount,
        quantity = t.quantity + excluded.quantity, revenueMinor = t.revenueMinor + excluded.revenueMinor, costMinor = t.costMinor + excluded.costMinor, profitMinor = t.profitMinor + excluded.profitMinor, commissionMinor = t.commissionMinor + excluded.commissionMinor, commissionExact = t.commissionExact + excluded.commissionExact;
DELETE FROM productMonthTotal AS t USING (SELECT DISTINCT bookId, productId AS productId, date_trunc('month', date)::date AS month FROM old_rows) AS k
WHERE t.saleCount = 0 AND t.bookId = k.bookId AND t.productId = k.productId AND t.month = k.month;
    INSERT INTO productYearTotal AS t (bookId, year, productId, saleCount, quantity, revenueMinor, costMinor, profitMinor, commissionMinor, commissionExact)
    SELECT bookId, year, productId, sum(saleCount)::bigint, sum(quantity)::bigint, sum(revenueMinor)::bigint, sum(costMinor)::bigint, sum(profitMinor)::bigint, sum(commissionMinor)::bigint, sum(commissionExact)::bigint
    FROM (SELECT bookId, extract(year FROM date)::integer AS year, productId AS productId, -1 AS saleCount, -1 * quantity AS quantity, -1 * revenueMinor AS revenueMinor, -1 * costMinor AS costMinor, -1 * profitMinor AS profitMinor, -1 * commissionMinor AS commissionMinor, -1 * commissionExact AS commissionExact
FROM old_rows WHERE NOT isVoided) AS moved
    GROUP BY bookId, year, productId
    ON CONFLICT (bookId, year, productId) DO UPDATE SET
        saleCount = t.saleCount + excluded.saleCount,
        quantity = t.quantity + excluded.quantity, revenueMinor = t.revenueMinor + excluded.revenueMinor, costMinor = t.costMinor + excluded.costMinor, profitMinor = t.profitMinor + excluded.profitMinor, commissionMinor = t.commissionMinor + excluded.commissionMinor, commissionExact = t.commissionExact + excluded.commissionExact;
DELETE FROM productYearTotal AS t USING (SELECT DISTINCT bookId, extract(year FROM date)::integer AS year, productId AS productId FROM old_rows) AS k
WHERE t.saleCount = 0 AND t.bookId = k.bookId AND t.year = k.year AND t.productId = k.productId;
    RETURN NULL;
END
$$;


--
-- Name: commission_summaries_after_insert(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.commission_summaries_after_insert() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    INSERT INTO clinicDayTotal AS t (bookId, clinicId, date, saleCount, quantity, revenueMinor, costMinor, profitMinor, commissionMinor, commissionExact)
    SELECT bookId, clinicId, date, sum(saleCount)::bigint, sum(quantity)::bigint, sum(revenueMinor)::bigint, sum(costMinor)::bigint, sum(profitMinor)::bigint, sum(commissionMinor)::bigint, sum(commissionExact)::bigint
    FROM (SELECT bookId, clinicId AS clinicId, date AS date, 1 AS saleCount, 1 * quantity AS quantity, 1 * revenueMinor AS revenueMinor, 1 * costMinor AS costMinor, 1 * profitMinor AS profitMinor, 1 * commissionMinor AS commissionMinor, 1 * commissionExact AS commissionExact
FROM new_rows WHERE NOT isVoided) AS moved
    GROUP BY bookId, clinicId, date
    ON CONFLICT (bookId, clinicId, date) DO UPDATE SET
        saleCount = t.saleCount + excluded.saleCount,
        quantity = t.quantity + excluded.quantity, revenueMinor = t.revenueMinor + excluded.revenueMinor, costMinor = t.costMinor + excluded.costMinor, profitMinor = t.profitMinor + excluded.profitMinor, commissionMinor = t.commissionMinor + excluded.commissionMinor, commissionExact = t.commissionExact + excluded.commissionExact;
    INSERT INTO clinicMonthTotal AS t (bookId, clinicId, month, saleCount, quantity, revenueMinor, costMinor, profitMinor, commissionMinor, commissionExact)
    SELECT bookId, clinicId, month, sum(saleCount)::bigint, sum(quantity)::bigint, sum(revenueMinor)::bigint, sum(costMinor)::bigint, sum(profitMinor)::bigint, sum(commissionMinor)::bigint, sum(commissionExact)::bigint
    FROM (SELECT bookId, clinicId AS clinicId, date_trunc('month', date)::date AS month, 1 AS saleCount, 1 * quantity AS quantity, 1 * revenueMinor AS revenueMinor, 1 * costMinor AS costMinor, 1 * profitMinor AS profitMinor, 1 * commissionMinor AS commissionMinor, 1 * commissionExact AS commissionExact
FROM new_rows WHERE NOT isVoided) AS moved
    GROUP BY bookId, clinicId, month
    ON CONFLICT (bookId, clinicId, month) DO UPDATE SET
        saleCount = t.saleCount + excluded.saleCount,
        quantity = t.quantity + excluded.quantity, revenueMinor = t.revenueMinor + excluded.revenueMinor, costMinor = t.costMinor + excluded.costMinor, profitMinor = t.profitMinor + excluded.profitMinor, commissionMinor = t.commissionMinor + excluded.commissionMinor, commissionExact = t.commissionExact + excluded.commissionExact;
    INSERT INTO productMonthTotal AS t (bookId, productId, month, saleCount, quantity, revenueMinor, costMinor, profitMinor, commissionMinor, commissionExact)
    SELECT bookId, productId, month, sum(saleCount)::bigint, sum(quantity)::bigint, sum(revenueMinor)::bigint, sum(costMinor)::bigint, sum(profitMinor)::bigint, sum(commissionMinor)::bigint, sum(commissionExact)::bigint
    FROM (SELECT bookId, productId AS productId, date_trunc('month', date)::date AS month, 1 AS saleCount, 1 * quantity AS quantity, 1 * revenueMinor AS revenueMinor, 1 * costMinor AS costMinor, 1 * profitMinor AS profitMinor, 1 * commissionMinor AS commissionMinor, 1 * commissionExact AS commissionExact
FROM new_rows WHERE NOT isVoided) AS moved
    GROUP BY bookId, productId, month
    ON CONFLICT (bookId, productId, month) DO UPDATE SET
        saleCount = t.saleCount + excluded.saleCount,
        quantity = t.quantity + excluded.quantity, revenueMinor = t.revenueMinor + excluded.revenueMinor, costMinor = t.costMinor + excluded.costMinor, profitMinor = t.profitMinor + excluded.profitMinor, commissionMinor = t.commissionMinor + excluded.commissionMinor, commissionExact = t.commissionExact + excluded.commissionExact;
    INSERT INTO productYearTotal AS t (bookId, year, productId, saleCount, quantity, revenueMinor, costMinor, profitMinor, commissionMinor, commissionExact)
    SELECT bookId, year, productId, sum(saleCount)::bigint, sum(quantity)::bigint, sum(revenueMinor)::bigint, sum(costMinor)::bigint, sum(profitMinor)::bigint, sum(commissionMinor)::bigint, sum(commissionExact)::bigint
    FROM (SELECT bookId, extract(year FROM date)::integer AS year, productId AS productId, 1 AS saleCount, 1 * quantity AS quantity, 1 * revenueMinor AS revenueMinor, 1 * costMinor AS costMinor, 1 * profitMinor AS profitMinor, 1 * commissionMinor AS commissionMinor, 1 * commissionExact AS commissionExact
FROM new_rows WHERE NOT isVoided) AS moved
    GROUP BY bookId, year, productId
    ON CONFLICT (bookId, year, productId) DO UPDATE SET
        saleCount = t.saleCount + excluded.saleCount,
        quantity = t.quantity + excluded.quantity, revenueMinor = t.revenueMinor + excluded.revenueMinor, costMinor = t.costMinor + excluded.costMinor, profitMinor = t.profitMinor + excluded.profitMinor, commissionMinor = t.commissionMinor + excluded.commissionMinor, commissionExact = t.commissionExact + excluded.commissionExact;
    RETURN NULL;
END
$$;


--
-- Name: commission_summaries_after_update(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.commission_summaries_after_update() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    INSERT INTO clinicDayTotal AS t (bookId, clinicId, date, saleCount, quantity, revenueMinor, costMinor, profitMinor, commissionMinor, commissionExact)
    SELECT bookId, clinicId, date, sum(saleCount)::bigint, sum(quantity)::bigint, sum(revenueMinor)::bigint, sum(costMinor)::bigint, sum(profitMinor)::bigint, sum(commissionMinor)::bigint, sum(commissionExact)::bigint
    FROM (SELECT bookId, clinicId AS clinicId, date AS date, 1 AS saleCount, 1 * quantity AS quantity, 1 * revenueMinor AS revenueMinor, 1 * costMinor AS costMinor, 1 * profitMinor AS profitMinor, 1 * commissionMinor AS commissionMinor, 1 * commissionExact AS commissionExact
FROM new_rows WHERE NOT isVoided UNION ALL SELECT bookId, clinicId AS clinicId, date AS date, -1 AS saleCount, -1 * quantity AS quantity, -1 * revenueMinor AS revenueMinor, -1 * costMinor AS costMinor, -1 * profitMinor AS profitMinor, -1 * commissionMinor AS commissionMinor, -1 * commissionExact AS commissionExact
FROM old_rows WHERE NOT isVoided) AS moved
    GROUP BY bookId, clinicId, date
    ON CONFLICT (bookId, clinicId, date) DO UPDATE SET
        saleCount = t.saleCount + excluded.saleCount,
        quantity = t.quantity + excluded.quantity, revenueMinor = t.revenueMinor + excluded.revenueMinor, costMinor = t.costMinor + excluded.costMinor, profitMinor = t.profitMinor + excluded.profitMinor, commissionMinor = t.commissionMinor + excluded.commissionMinor, commissionExact = t.commissionExact + excluded.commissionExact;
DELETE FROM clinicDayTotal AS t USING (SELECT DISTINCT bookId, clinicId AS clinicId, date AS date FROM old_rows) AS k
WHERE t.saleCount = 0 AND t.bookId = k.bookId AND t.clinicId = k.clinicId AND t.date = k.date;
    INSERT INTO clinicMonthTotal AS t (bookId, clinicId, month, saleCount, quantity, revenueMinor, costMinor, profitMinor, commissionMinor, commissionExact)
    SELECT bookId, clinicId, month, sum(saleCount)::bigint, sum(quantity)::bigint, sum(revenueMinor)::bigint, sum(costMinor)::bigint, sum(profitMinor)::bigint, sum(commissionMinor)::bigint, sum(commissionExact)::bigint
    FROM (SELECT bookId, clinicId AS clinicId, date_trunc('month', date)::date AS month, 1 AS saleCount, 1 * quantity AS quantity, 1 * revenueMinor AS revenueMinor, 1 * costMinor AS costMinor, 1 * profitMinor AS profitMinor, 1 * commissionMinor AS commissionMinor, 1 * commissionExact AS commissionExact
FROM new_rows WHERE NOT isVoided UNION ALL SELECT bookId, clinicId AS clinicId, date_trunc('month', date)::date AS month, -1 AS saleCount, -1 * quantity AS quantity, -1 * revenueMinor AS revenueMinor, -1 * costMinor AS costMinor, -1 * profitMinor AS profitMinor, -1 * commissionMinor AS commissionMinor, -1 * commissionExact AS commissionExact
FROM old_rows WHERE NOT isVoided) AS moved
    GROUP BY bookId, clinicId, month
    ON CONFLICT (bookId, clinicId, month) DO UPDATE SET
        saleCount = t.saleCount + excluded.saleCount,
        quantity = t.quantity + excluded.quantity, revenueMinor = t.revenueMinor + excluded.revenueMinor, costMinor = t.costMinor + excluded.costMinor, profitMinor = t.profitMinor + excluded.profitMinor, commissionMinor = t.commissionMinor + excluded.commissionMinor, commissionExact = t.commissionExact + excluded.commissionExact;
DELETE FROM clinicMonthTotal AS t USING (SELECT DISTINCT bookId, clinicId AS clinicId, date_trunc('month', date)::date AS month FROM old_rows) AS k
WHERE t.saleCount = 0 AND t.bookId = k.bookId AND t.clinicId = k.clinicId AND t.month = k.month;
    INSERT INTO productMonthTotal AS t (bookId, productId, month, saleCount, quantity, revenueMinor, costMinor, profitMinor, commissionMinor, commissionExact)
    SELECT bookId, productId, month, sum(saleCount)::bigint, sum(quantity)::bigint, sum(revenueMinor)::bigint, sum(costMinor)::bigint, sum(profitMinor)::bigint, sum(commissionMinor)::bigint, sum(commissionExact)::bigint
    FROM (SELECT bookId, productId AS productId, date_trunc('month', date)::date AS month, 1 AS saleCount, 1 * quantity AS quantity, 1 * revenueMinor AS revenueMinor, 1 * costMinor AS costMinor, 1 * profitMinor AS profitMinor, 1 * commissionMinor AS commissionMinor, 1 * commissionExact AS commissionExact
FROM new_rows WHERE NOT isVoided UNION ALL SELECT bookId, productId AS productId, date_trunc('month', date)::date AS month, -1 AS saleCount, -1 * quantity AS quantity, -1 * revenueMinor AS revenueMinor, -1 * costMinor AS costMinor, -1 * profitMinor AS profitMinor, -1 * commissionMinor AS commissionMinor, -1 * commissionExact AS commissionExact
FROM old_rows WHERE NOT isVoided) AS moved
    GROUP BY bookId, productId, month
    ON CONFLICT (bookId, productId, month) DO UPDATE SET
        saleCount = t.saleCount + excluded.saleCount,
        quantity = t.quantity + excluded.quantity, revenueMinor = t.revenueMinor + excluded.revenueMinor, costMinor = t.costMinor + excluded.costMinor, profitMinor = t.profitMinor + excluded.profitMinor, commissionMinor = t.commissionMinor + excluded.commissionMinor, commissionExact = t.commissionExact + excluded.commissionExact;
DELETE FROM productMonthTotal AS t USING (SELECT DISTINCT bookId, productId AS productId, date_trunc('month', date)::date AS month FROM old_rows) AS k
WHERE t.saleCount = 0 AND t.bookId = k.bookId AND t.productId = k.productId AND t.month = k.month;
    INSERT INTO productYearTotal AS t (bookId, year, productId, saleCount, quantity, revenueMinor, costMinor, profitMinor, commissionMinor, commissionExact)
    SELECT bookId, year, productId, sum(saleCount)::bigint, sum(quantity)::bigint, sum(revenueMinor)::bigint, sum(costMinor)::bigint, sum(profitMinor)::bigint, sum(commissionMinor)::bigint, sum(commissionExact)::bigint
    FROM (SELECT bookId, extract(year FROM date)::integer AS year, productId AS productId, 1 AS saleCount, 1 * quantity AS quantity, 1 * revenueMinor AS revenueMinor, 1 * costMinor AS costMinor, 1 * profitMinor AS profitMinor, 1 * commissionMinor AS commissionMinor, 1 * commissionExact AS commissionExact
FROM new_rows WHERE NOT isVoided UNION ALL SELECT bookId, extract(year FROM date)::integer AS year, productId AS productId, -1 AS saleCount, -1 * quantity AS quantity, -1 * revenueMinor AS revenueMinor, -1 * costMinor AS costMinor, -1 * profitMinor AS profitMinor, -1 * commissionMinor AS commissionMinor, -1 * commissionExact AS commissionExact
FROM old_rows WHERE NOT isVoided) AS moved
    GROUP BY bookId, year, productId
    ON CONFLICT (bookId, year, productId) DO UPDATE SET
        saleCount = t.saleCount + excluded.saleCount,
        quantity = t.quantity + excluded.quantity, revenueMinor = t.revenueMinor + excluded.revenueMinor, costMinor = t.costMinor + excluded.costMinor, profitMinor = t.profitMinor + excluded.profitMinor, commissionMinor = t.commissionMinor + excluded.commissionMinor, commissionExact = t.commissionExact + excluded.commissionExact;
DELETE FROM productYearTotal AS t USING (SELECT DISTINCT bookId, extract(year FROM date)::integer AS year, productId AS productId FROM old_rows) AS k
WHERE t.saleCount = 0 AND t.bookId = k.bookId AND t.year = k.year AND t.productId = k.productId;
    RETURN NULL;
END
$$;


SET default_tablespace = '';

SET default_table_access_method = heap;

--
-- Name: account; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.account (
    id bigint NOT NULL,
    username text NOT NULL,
    passwordhash text NOT NULL,
    createdat bigint NOT NULL,
    CONSTRAINT account_username_check CHECK ((length(btrim(username)) > 0))
);


--
-- Name: account_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.account_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: account_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.account_id_seq OWNED BY public.account.id;


--
-- Name: apitoken; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.apitoken (
    id bigint NOT NULL,
    accountid bigint NOT NULL,
    name text NOT NULL,
    tokendigest text NOT NULL,
    createdat bigint NOT NULL,
    lastusedat bigint,
    revokedat bigint
);


--
-- Name: apitoken_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.apitoken_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: apitoken_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.apitoken_id_seq OWNED BY public.apitoken.id;


--
-- Name: auditentry; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.auditentry (
    id bigint NOT NULL,
    bookid bigint NOT NULL,
    at bigint NOT NULL,
    actor text NOT NULL,
    subject text NOT NULL,
    subjectid bigint,
    lastsubjectid bigint,
    action text NOT NULL,
    before text,
    after text,
    CONSTRAINT auditentry_subject_check CHECK ((subject = ANY (ARRAY['sale'::text, 'terms'::text, 'payout'::text, 'period'::text, 'settings'::text])))
);


--
-- Name: auditentry_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.auditentry_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: auditentry_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.auditentry_id_seq OWNED BY public.auditentry.id;


--
-- Name: book; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.book (
    id bigint NOT NULL,
    name text NOT NULL,
    currencycode text NOT NULL,
    currencyminordigits integer NOT NULL,
    timezone text NOT NULL,
    roundingrule text NOT NULL,
    roundingscope text NOT NULL,
    revision bigint DEFAULT 0 NOT NULL,
    locale text DEFAULT 'en_US'::text NOT NULL,
    CONSTRAINT book_currencycode_check CHECK ((currencycode ~ '^[A-Z]{3}$'::text)),
    CONSTRAINT book_currencyminordigits_check CHECK (((currencyminordigits >= 0) AND (currencyminordigits <= 4))),
    CONSTRAINT book_locale_check CHECK (((length(locale) >= 2) AND (length(locale) <= 20))),
    CONSTRAINT book_name_check CHECK ((length(btrim(name)) > 0)),
    CONSTRAINT book_roundingrule_check CHECK ((roundingrule = ANY (ARRAY['half-away-from-zero'::text, 'half-to-even'::text]))),
    CONSTRAINT book_roundingscope_check CHECK ((roundingscope = ANY (ARRAY['per-line'::text, 'per-statement'::text])))
);


--
-- Name: book_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.book_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: book_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.book_id_seq OWNED BY public.book.id;


--
-- Name: clinic; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.clinic (
    id bigint NOT NULL,
    bookid bigint NOT NULL,
    name text NOT NULL,
    schedulekind text NOT NULL,
    scheduleanchor text,
    isarchived boolean DEFAULT false NOT NULL,
    CONSTRAINT clinic_check CHECK (((schedulekind = ANY (ARRAY['weekly'::text, 'biweekly'::text])) = (scheduleanchor IS NOT NULL))),
    CONSTRAINT clinic_name_check CHECK ((length(btrim(name)) > 0)),
    CONSTRAINT clinic_schedulekind_check CHECK ((schedulekind = ANY (ARRAY['weekly'::text, 'biweekly'::text, 'semimonthly'::text, 'monthly'::text])))
);


--
-- Name: clinic_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.clinic_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: clinic_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.clinic_id_seq OWNED BY public.clinic.id;


--
-- Name: clinicdaytotal; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.clinicdaytotal (
    bookid bigint NOT NULL,
    clinicid bigint NOT NULL,
    date date NOT NULL,
    salecount bigint NOT NULL,
    quantity bigint NOT NULL,
    revenueminor bigint NOT NULL,
    costminor bigint NOT NULL,
    profitminor bigint NOT NULL,
    commissionminor bigint NOT NULL,
    commissionexact bigint NOT NULL
);


--
-- Name: clinicmonthtotal; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.clinicmonthtotal (
    bookid bigint NOT NULL,
    clinicid bigint NOT NULL,
    month date NOT NULL,
    salecount bigint NOT NULL,
    quantity bigint NOT NULL,
    revenueminor bigint NOT NULL,
    costminor bigint NOT NULL,
    profitminor bigint NOT NULL,
    commissionminor bigint NOT NULL,
    commissionexact bigint NOT NULL
);


--
-- Name: closedperiod; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.closedperiod (
    bookid bigint NOT NULL,
    clinicid bigint NOT NULL,
    periodstart date NOT NULL,
    periodend date NOT NULL,
    CONSTRAINT closedperiod_check CHECK ((periodend >= periodstart))
);


--
-- Name: commissionmigration; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.commissionmigration (
    name text NOT NULL,
    appliedat timestamp with time zone DEFAULT now() NOT NULL
);


--
-- Name: invitation; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.invitation (
    tokendigest text NOT NULL,
    bookid bigint NOT NULL,
    invitedby bigint,
    expiresat bigint NOT NULL,
    usedat bigint,
    role text DEFAULT 'member'::text NOT NULL,
    accountid bigint,
    CONSTRAINT invitation_role_check CHECK ((role = ANY (ARRAY['owner'::text, 'member'::text])))
);


--
-- Name: member; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.member (
    bookid bigint NOT NULL,
    accountid bigint NOT NULL,
    role text NOT NULL,
    CONSTRAINT member_role_check CHECK ((role = ANY (ARRAY['owner'::text, 'member'::text])))
);


--
-- Name: payout; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.payout (
    id bigint NOT NULL,
    bookid bigint NOT NULL,
    clinicid bigint NOT NULL,
    periodstart date NOT NULL,
    periodend date NOT NULL,
    amountminor bigint NOT NULL,
    receivedon date NOT NULL,
    reference text,
    CONSTRAINT payout_check CHECK ((periodend >= periodstart))
);


--
-- Name: payout_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.payout_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: payout_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.payout_id_seq OWNED BY public.payout.id;


--
-- Name: product; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.product (
    id bigint NOT NULL,
    bookid bigint NOT NULL,
    name text NOT NULL,
    sku text,
    unitpriceminor bigint NOT NULL,
    unitcostminor bigint NOT NULL,
    isarchived boolean DEFAULT false NOT NULL,
    CONSTRAINT product_name_check CHECK ((length(btrim(name)) > 0)),
    CONSTRAINT product_unitcostminor_check CHECK ((unitcostminor >= 0)),
    CONSTRAINT product_unitpriceminor_check CHECK ((unitpriceminor >= 0))
);


--
-- Name: product_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.product_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: product_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.product_id_seq OWNED BY public.product.id;


--
-- Name: productmonthtotal; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.productmonthtotal (
    bookid bigint NOT NULL,
    productid bigint NOT NULL,
    month date NOT NULL,
    salecount bigint NOT NULL,
    quantity bigint NOT NULL,
    revenueminor bigint NOT NULL,
    costminor bigint NOT NULL,
    profitminor bigint NOT NULL,
    commissionminor bigint NOT NULL,
    commissionexact bigint NOT NULL
);


--
-- Name: productyeartotal; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.productyeartotal (
    bookid bigint NOT NULL,
    year integer NOT NULL,
    productid bigint NOT NULL,
    salecount bigint NOT NULL,
    quantity bigint NOT NULL,
    revenueminor bigint NOT NULL,
    costminor bigint NOT NULL,
    profitminor bigint NOT NULL,
    commissionminor bigint NOT NULL,
    commissionexact bigint NOT NULL
);


--
-- Name: sale; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.sale (
    id bigint NOT NULL,
    bookid bigint NOT NULL,
    clinicid bigint NOT NULL,
    productid bigint NOT NULL,
    date date NOT NULL,
    quantity bigint NOT NULL,
    unitpriceminor bigint NOT NULL,
    unitcostminor bigint NOT NULL,
    discountminor bigint NOT NULL,
    termsid bigint,
    sharebasispoints integer,
    basis text,
    revenueminor bigint NOT NULL,
    costminor bigint NOT NULL,
    profitminor bigint NOT NULL,
    commissionexact bigint NOT NULL,
    commissionminor bigint NOT NULL,
    note text,
    isvoided boolean DEFAULT false NOT NULL,
    idempotencykey text,
    CONSTRAINT sale_basis_check CHECK ((basis = ANY (ARRAY['profit'::text, 'revenue'::text]))),
    CONSTRAINT sale_check CHECK ((((termsid IS NULL) = (sharebasispoints IS NULL)) AND ((termsid IS NULL) = (basis IS NULL)))),
    CONSTRAINT sale_discountminor_check CHECK ((discountminor >= 0)),
    CONSTRAINT sale_quantity_check CHECK ((quantity <> 0)),
    CONSTRAINT sale_sharebasispoints_check CHECK (((sharebasispoints >= 0) AND (sharebasispoints <= 10000))),
    CONSTRAINT sale_unitcostminor_check CHECK ((unitcostminor >= 0)),
    CONSTRAINT sale_unitpriceminor_check CHECK ((unitpriceminor >= 0))
);


--
-- Name: sale_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.sale_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: sale_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.sale_id_seq OWNED BY public.sale.id;


--
-- Name: session; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.session (
    tokendigest text NOT NULL,
    accountid bigint NOT NULL,
    csrftoken text NOT NULL,
    expiresat bigint NOT NULL
);


--
-- Name: terms; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.terms (
    id bigint NOT NULL,
    bookid bigint NOT NULL,
    clinicid bigint NOT NULL,
    productid bigint,
    basis text NOT NULL,
    sharebasispoints integer NOT NULL,
    effectivefrom date NOT NULL,
    isarchived boolean DEFAULT false NOT NULL,
    CONSTRAINT terms_basis_check CHECK ((basis = ANY (ARRAY['profit'::text, 'revenue'::text]))),
    CONSTRAINT terms_sharebasispoints_check CHECK (((sharebasispoints >= 0) AND (sharebasispoints <= 10000)))
);


--
-- Name: terms_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.terms_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: terms_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.terms_id_seq OWNED BY public.terms.id;


--
-- Name: account id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.account ALTER COLUMN id SET DEFAULT nextval('public.account_id_seq'::regclass);


--
-- Name: apitoken id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.apitoken ALTER COLUMN id SET DEFAULT nextval('public.apitoken_id_seq'::regclass);


--
-- Name: auditentry id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.auditentry ALTER COLUMN id SET DEFAULT nextval('public.auditentry_id_seq'::regclass);


--
-- Name: book id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.book ALTER COLUMN id SET DEFAULT nextval('public.book_id_seq'::regclass);


--
-- Name: clinic id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.clinic ALTER COLUMN id SET DEFAULT nextval('public.clinic_id_seq'::regclass);


--
-- Name: payout id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.payout ALTER COLUMN id SET DEFAULT nextval('public.payout_id_seq'::regclass);


--
-- Name: product id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.product ALTER COLUMN id SET DEFAULT nextval('public.product_id_seq'::regclass);


--
-- Name: sale id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.sale ALTER COLUMN id SET DEFAULT nextval('public.sale_id_seq'::regclass);


--
-- Name: terms id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.terms ALTER COLUMN id SET DEFAULT nextval('public.terms_id_seq'::regclass);


--
-- Data for Name: account; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.account (id, username, passwordhash, createdat) FROM stdin;
\.


--
-- Data for Name: apitoken; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.apitoken (id, accountid, name, tokendigest, createdat, lastusedat, revokedat) FROM stdin;
\.


--
-- Data for Name: auditentry; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.auditentry (id, bookid, at, actor, subject, subjectid, lastsubjectid, action, before, after) FROM stdin;
1	1	1795459916	cli:root	sale	1	1039	import	\N	{"clinics":4,"products":12,"sales":1039,"terms":6}
2	1	1795459916	cli:root	payout	1	\N	create	\N	{"amountMinor":7240,"clinicId":1,"periodEnd":"2025-11-30","periodStart":"2025-11-01","receivedOn":"2025-12-06","reference":"Transfer 1000"}
3	1	1795459916	cli:root	period	1	\N	close	{"clinicId":1,"closed":false,"periodEnd":"2025-11-30","periodStart":"2025-11-01"}	{"clinicId":1,"closed":true,"periodEnd":"2025-11-30","periodStart":"2025-11-01"}
4	1	1795459916	cli:root	payout	2	\N	create	\N	{"amountMinor":23264,"clinicId":1,"periodEnd":"2025-12-31","periodStart":"2025-12-01","receivedOn":"2026-01-03","reference":"Transfer 1001"}
5	1	1795459916	cli:root	period	1	\N	close	{"clinicId":1,"closed":false,"periodEnd":"2025-12-31","periodStart":"2025-12-01"}	{"clinicId":1,"closed":true,"periodEnd":"2025-12-31","periodStart":"2025-12-01"}
6	1	1795459916	cli:root	payout	3	\N	create	\N	{"amountMinor":42780,"clinicId":1,"periodEnd":"2026-01-31","periodStart":"2026-01-01","receivedOn":"2026-02-09","reference":"Transfer 1002"}
7	1	1795459916	cli:root	period	1	\N	close	{"clinicId":1,"closed":false,"periodEnd":"2026-01-31","periodStart":"2026-01-01"}	{"clinicId":1,"closed":true,"periodEnd":"2026-01-31","periodStart":"2026-01-01"}
8	1	1795459916	cli:root	payout	4	\N	create	\N	{"amountMinor":18724,"clinicId":1,"periodEnd":"2026-02-28","periodStart":"2026-02-01","receivedOn":"2026-03-03","reference":"Transfer 1003"}
9	1	1795459916	cli:root	period	1	\N	close	{"clinicId":1,"closed":false,"periodEnd":"2026-02-28","periodStart":"2026-02-01"}	{"clinicId":1,"closed":true,"periodEnd":"2026-02-28","periodStart":"2026-02-01"}
10	1	1795459916	cli:root	payout	5	\N	create	\N	{"amountMinor":59078,"clinicId":1,"periodEnd":"2026-03-31","periodStart":"2026-03-01","receivedOn":"2026-04-10","reference":"Transfer 1004"}
11	1	1795459916	cli:root	period	1	\N	close	{"clinicId":1,"closed":false,"periodEnd":"2026-03-31","periodStart":"2026-03-01"}	{"clinicId":1,"closed":true,"periodEnd":"2026-03-31","periodStart":"2026-03-01"}
12	1	1795459916	cli:root	payout	6	\N	create	\N	{"amountMinor":44512,"clinicId":1,"periodEnd":"2026-04-30","periodStart":"2026-04-01","receivedOn":"2026-05-06","reference":"Transfer 1005"}
13	1	1795459916	cli:root	period	1	\N	close	{"clinicId":1,"closed":false,"periodEnd":"2026-04-30","periodStart":"2026-04-01"}	{"clinicId":1,"closed":true,"periodEnd":"2026-04-30","periodStart":"2026-04-01"}
14	1	1795459916	cli:root	payout	7	\N	create	\N	{"amountMinor":30984,"clinicId":1,"periodEnd":"2026-05-31","periodStart":"2026-05-01","receivedOn":"2026-06-08","reference":"Transfer 1006"}
15	1	1795459916	cli:root	payout	8	\N	create	\N	{"amountMinor":38760,"clinicId":1,"periodEnd":"2026-06-30","periodStart":"2026-06-01","receivedOn":"2026-07-08","reference":"Transfer 1007"}
16	1	1795459916	cli:root	payout	9	\N	create	\N	{"amountMinor":48304,"clinicId":1,"periodEnd":"2026-07-31","periodStart":"2026-07-01","receivedOn":"2026-08-09","reference":"Transfer 1008"}
17	1	1795459916	cli:root	payout	10	\N	create	\N	{"amountMinor":46676,"clinicId":1,"periodEnd":"2026-08-31","periodStart":"2026-08-01","receivedOn":"2026-09-07","reference":"Transfer 1009"}
18	1	1795459916	cli:root	payout	11	\N	create	\N	{"amountMinor":41678,"clinicId":1,"periodEnd":"2026-09-30","periodStart":"2026-09-01","receivedOn":"2026-10-05","reference":"Transfer 1010"}
19	1	1795459916	cli:root	payout	12	\N	create	\N	{"amountMinor":11792,"clinicId":2,"periodEnd":"2025-11-30","periodStart":"2025-11-16","receivedOn":"2025-12-07","reference":"Transfer 1000"}
20	1	1795459916	cli:root	period	2	\N	close	{"clinicId":2,"closed":false,"periodEnd":"2025-11-30","periodStart":"2025-11-16"}	{"clinicId":2,"closed":true,"periodEnd":"2025-11-30","periodStart":"2025-11-16"}
21	1	1795459916	cli:root	payout	13	\N	create	\N	{"amountMinor":22935,"clinicId":2,"periodEnd":"2025-12-15","periodStart":"2025-12-01","receivedOn":"2025-12-18","reference":"Transfer 1001"}
22	1	1795459916	cli:root	period	2	\N	close	{"clinicId":2,"closed":false,"periodEnd":"2025-12-15","periodStart":"2025-12-01"}	{"clinicId":2,"closed":true,"periodEnd":"2025-12-15","periodStart":"2025-12-01"}
23	1	1795459916	cli:root	payout	14	\N	create	\N	{"amountMinor":33055,"clinicId":2,"periodEnd":"2025-12-31","periodStart":"2025-12-16","receivedOn":"2026-01-08","reference":"Transfer 1002"}
24	1	1795459916	cli:root	period	2	\N	close	{"clinicId":2,"closed":false,"periodEnd":"2025-12-31","periodStart":"2025-12-16"}	{"clinicId":2,"closed":true,"periodEnd":"2025-12-31","periodStart":"2025-12-16"}
25	1	1795459916	cli:root	payout	15	\N	create	\N	{"amountMinor":30162,"clinicId":2,"periodEnd":"2026-01-15","periodStart":"2026-01-01","receivedOn":"2026-01-20","reference":"Transfer 1003"}
26	1	1795459916	cli:root	period	2	\N	close	{"clinicId":2,"closed":false,"periodEnd":"2026-01-15","periodStart":"2026-01-01"}	{"clinicId":2,"closed":true,"periodEnd":"2026-01-15","periodStart":"2026-01-01"}
27	1	1795459916	cli:root	payout	16	\N	create	\N	{"amountMinor":22501,"clinicId":2,"periodEnd":"2026-01-31","periodStart":"2026-01-16","receivedOn":"2026-02-07","reference":"Transfer 1004"}
28	1	1795459916	cli:root	period	2	\N	close	{"clinicId":2,"closed":false,"periodEnd":"2026-01-31","periodStart":"2026-01-16"}	{"clinicId":2,"closed":true,"periodEnd":"2026-01-31","periodStart":"2026-01-16"}
29	1	1795459916	cli:root	payout	17	\N	create	\N	{"amountMinor":35107,"clinicId":2,"periodEnd":"2026-02-15","periodStart":"2026-02-01","receivedOn":"2026-02-23","reference":"Transfer 1005"}
30	1	1795459916	cli:root	period	2	\N	close	{"clinicId":2,"closed":false,"periodEnd":"2026-02-15","periodStart":"2026-02-01"}	{"clinicId":2,"closed":true,"periodEnd":"2026-02-15","periodStart":"2026-02-01"}
31	1	1795459916	cli:root	payout	18	\N	create	\N	{"amountMinor":29772,"clinicId":2,"periodEnd":"2026-02-28","periodStart":"2026-02-16","receivedOn":"2026-03-06","reference":"Transfer 1006"}
32	1	1795459916	cli:root	period	2	\N	close	{"clinicId":2,"closed":false,"periodEnd":"2026-02-28","periodStart":"2026-02-16"}	{"clinicId":2,"closed":true,"periodEnd":"2026-02-28","periodStart":"2026-02-16"}
33	1	1795459916	cli:root	payout	19	\N	create	\N	{"amountMinor":16808,"clinicId":2,"periodEnd":"2026-03-15","periodStart":"2026-03-01","receivedOn":"2026-03-21","reference":"Transfer 1007"}
34	1	1795459916	cli:root	period	2	\N	close	{"clinicId":2,"closed":false,"periodEnd":"2026-03-15","periodStart":"2026-03-01"}	{"clinicId":2,"closed":true,"periodEnd":"2026-03-15","periodStart":"2026-03-01"}
35	1	1795459916	cli:root	payout	20	\N	create	\N	{"amountMinor":18700,"clinicId":2,"periodEnd":"2026-03-31","periodStart":"2026-03-16","receivedOn":"2026-04-08","reference":"Transfer 1008"}
36	1	1795459916	cli:root	period	2	\N	close	{"clinicId":2,"closed":false,"periodEnd":"2026-03-31","periodStart":"2026-03-16"}	{"clinicId":2,"closed":true,"periodEnd":"2026-03-31","periodStart":"2026-03-16"}
37	1	1795459916	cli:root	payout	21	\N	create	\N	{"amountMinor":19118,"clinicId":2,"periodEnd":"2026-04-15","periodStart":"2026-04-01","receivedOn":"2026-04-24","reference":"Transfer 1009"}
38	1	1795459916	cli:root	period	2	\N	close	{"clinicId":2,"closed":false,"periodEnd":"2026-04-15","periodStart":"2026-04-01"}	{"clinicId":2,"closed":true,"periodEnd":"2026-04-15","periodStart":"2026-04-01"}
39	1	1795459916	cli:root	payout	22	\N	create	\N	{"amountMinor":28710,"clinicId":2,"periodEnd":"2026-04-30","periodStart":"2026-04-16","receivedOn":"2026-05-08","reference":"Transfer 1010"}
40	1	1795459916	cli:root	period	2	\N	close	{"clinicId":2,"closed":false,"periodEnd":"2026-04-30","periodStart":"2026-04-16"}	{"clinicId":2,"closed":true,"periodEnd":"2026-04-30","periodStart":"2026-04-16"}
41	1	1795459916	cli:root	payout	23	\N	create	\N	{"amountMinor":38995,"clinicId":2,"periodEnd":"2026-05-15","periodStart":"2026-05-01","receivedOn":"2026-05-22","reference":"Transfer 1011"}
42	1	1795459916	cli:root	period	2	\N	close	{"clinicId":2,"closed":false,"periodEnd":"2026-05-15","periodStart":"2026-05-01"}	{"clinicId":2,"closed":true,"periodEnd":"2026-05-15","periodStart":"2026-05-01"}
43	1	1795459916	cli:root	payout	24	\N	create	\N	{"amountMinor":24970,"clinicId":2,"periodEnd":"2026-05-31","periodStart":"2026-05-16","receivedOn":"2026-06-09","reference":"Transfer 1012"}
44	1	1795459916	cli:root	period	2	\N	close	{"clinicId":2,"closed":false,"periodEnd":"2026-05-31","periodStart":"2026-05-16"}	{"clinicId":2,"closed":true,"periodEnd":"2026-05-31","periodStart":"2026-05-16"}
45	1	1795459916	cli:root	payout	25	\N	create	\N	{"amountMinor":35139,"clinicId":2,"periodEnd":"2026-06-15","periodStart":"2026-06-01","receivedOn":"2026-06-22","reference":"Transfer 1013"}
46	1	1795459916	cli:root	period	2	\N	close	{"clinicId":2,"closed":false,"periodEnd":"2026-06-15","periodStart":"2026-06-01"}	{"clinicId":2,"closed":true,"periodEnd":"2026-06-15","periodStart":"2026-06-01"}
47	1	1795459916	cli:root	payout	26	\N	create	\N	{"amountMinor":40046,"clinicId":2,"periodEnd":"2026-06-30","periodStart":"2026-06-16","receivedOn":"2026-07-10","reference":"Transfer 1014"}
48	1	1795459916	cli:root	period	2	\N	close	{"clinicId":2,"closed":false,"periodEnd":"2026-06-30","periodStart":"2026-06-16"}	{"clinicId":2,"closed":true,"periodEnd":"2026-06-30","periodStart":"2026-06-16"}
49	1	1795459916	cli:root	payout	27	\N	create	\N	{"amountMinor":22656,"clinicId":2,"periodEnd":"2026-07-15","periodStart":"2026-07-01","receivedOn":"2026-07-25","reference":"Transfer 1015"}
50	1	1795459916	cli:root	period	2	\N	close	{"clinicId":2,"closed":false,"periodEnd":"2026-07-15","periodStart":"2026-07-01"}	{"clinicId":2,"closed":true,"periodEnd":"2026-07-15","periodStart":"2026-07-01"}
51	1	1795459916	cli:root	payout	28	\N	create	\N	{"amountMinor":28315,"clinicId":2,"periodEnd":"2026-07-31","periodStart":"2026-07-16","receivedOn":"2026-08-05","reference":"Transfer 1016"}
52	1	1795459916	cli:root	period	2	\N	close	{"clinicId":2,"closed":false,"periodEnd":"2026-07-31","periodStart":"2026-07-16"}	{"clinicId":2,"closed":true,"periodEnd":"2026-07-31","periodStart":"2026-07-16"}
53	1	1795459916	cli:root	payout	29	\N	create	\N	{"amountMinor":22273,"clinicId":2,"periodEnd":"2026-08-15","periodStart":"2026-08-01","receivedOn":"2026-08-22","reference":"Transfer 1017"}
54	1	1795459916	cli:root	period	2	\N	close	{"clinicId":2,"closed":false,"periodEnd":"2026-08-15","periodStart":"2026-08-01"}	{"clinicId":2,"closed":true,"periodEnd":"2026-08-15","periodStart":"2026-08-01"}
55	1	1795459916	cli:root	payout	30	\N	create	\N	{"amountMinor":26948,"clinicId":2,"periodEnd":"2026-08-31","periodStart":"2026-08-16","receivedOn":"2026-09-07","reference":"Transfer 1018"}
56	1	1795459916	cli:root	payout	31	\N	create	\N	{"amountMinor":23519,"clinicId":2,"periodEnd":"2026-09-15","periodStart":"2026-09-01","receivedOn":"2026-09-20","reference":"Transfer 1019"}
57	1	1795459916	cli:root	payout	32	\N	create	\N	{"amountMinor":17955,"clinicId":2,"periodEnd":"2026-09-30","periodStart":"2026-09-16","receivedOn":"2026-10-06","reference":"Transfer 1020"}
58	1	1795459916	cli:root	payout	33	\N	create	\N	{"amountMinor":22294,"clinicId":2,"periodEnd":"2026-10-15","periodStart":"2026-10-01","receivedOn":"2026-10-19","reference":"Transfer 1021"}
59	1	1795459916	cli:root	payout	34	\N	create	\N	{"amountMinor":26488,"clinicId":2,"periodEnd":"2026-10-31","periodStart":"2026-10-16","receivedOn":"2026-11-07","reference":"Transfer 1022"}
60	1	1795459916	cli:root	payout	35	\N	create	\N	{"amountMinor":15727,"clinicId":2,"periodEnd":"2026-11-15","periodStart":"2026-11-01","receivedOn":"2026-11-23","reference":"Transfer 1023"}
61	1	1795459916	cli:root	payout	36	\N	create	\N	{"amountMinor":8323,"clinicId":3,"periodEnd":"2025-12-04","periodStart":"2025-11-21","receivedOn":"2025-12-07","reference":"Transfer 1000"}
62	1	1795459916	cli:root	period	3	\N	close	{"clinicId":3,"closed":false,"periodEnd":"2025-12-04","periodStart":"2025-11-21"}	{"clinicId":3,"closed":true,"periodEnd":"2025-12-04","periodStart":"2025-11-21"}
63	1	1795459916	cli:root	payout	37	\N	create	\N	{"amountMinor":4920,"clinicId":3,"periodEnd":"2025-12-18","periodStart":"2025-12-05","receivedOn":"2025-12-22","reference":"Transfer 1001"}
64	1	1795459916	cli:root	period	3	\N	close	{"clinicId":3,"closed":false,"periodEnd":"2025-12-18","periodStart":"2025-12-05"}	{"clinicId":3,"closed":true,"periodEnd":"2025-12-18","periodStart":"2025-12-05"}
65	1	1795459916	cli:root	payout	38	\N	create	\N	{"amountMinor":2700,"clinicId":3,"periodEnd":"2026-01-01","periodStart":"2025-12-19","receivedOn":"2026-01-06","reference":"Transfer 1002"}
66	1	1795459916	cli:root	period	3	\N	close	{"clinicId":3,"closed":false,"periodEnd":"2026-01-01","periodStart":"2025-12-19"}	{"clinicId":3,"closed":true,"periodEnd":"2026-01-01","periodStart":"2025-12-19"}
67	1	1795459916	cli:root	payout	39	\N	create	\N	{"amountMinor":3257,"clinicId":3,"periodEnd":"2026-01-15","periodStart":"2026-01-02","receivedOn":"2026-01-19","reference":"Transfer 1003"}
68	1	1795459916	cli:root	period	3	\N	close	{"clinicId":3,"closed":false,"periodEnd":"2026-01-15","periodStart":"2026-01-02"}	{"clinicId":3,"closed":true,"periodEnd":"2026-01-15","periodStart":"2026-01-02"}
69	1	1795459916	cli:root	payout	40	\N	create	\N	{"amountMinor":6311,"clinicId":3,"periodEnd":"2026-01-29","periodStart":"2026-01-16","receivedOn":"2026-02-03","reference":"Transfer 1004"}
70	1	1795459916	cli:root	period	3	\N	close	{"clinicId":3,"closed":false,"periodEnd":"2026-01-29","periodStart":"2026-01-16"}	{"clinicId":3,"closed":true,"periodEnd":"2026-01-29","periodStart":"2026-01-16"}
71	1	1795459916	cli:root	payout	41	\N	create	\N	{"amountMinor":3048,"clinicId":3,"periodEnd":"2026-02-12","periodStart":"2026-01-30","receivedOn":"2026-02-17","reference":"Transfer 1005"}
72	1	1795459916	cli:root	period	3	\N	close	{"clinicId":3,"closed":false,"periodEnd":"2026-02-12","periodStart":"2026-01-30"}	{"clinicId":3,"closed":true,"periodEnd":"2026-02-12","periodStart":"2026-01-30"}
73	1	1795459916	cli:root	payout	42	\N	create	\N	{"amountMinor":4524,"clinicId":3,"periodEnd":"2026-02-26","periodStart":"2026-02-13","receivedOn":"2026-03-03","reference":"Transfer 1006"}
74	1	1795459916	cli:root	period	3	\N	close	{"clinicId":3,"closed":false,"periodEnd":"2026-02-26","periodStart":"2026-02-13"}	{"clinicId":3,"closed":true,"periodEnd":"2026-02-26","periodStart":"2026-02-13"}
75	1	1795459916	cli:root	payout	43	\N	create	\N	{"amountMinor":4236,"clinicId":3,"periodEnd":"2026-03-12","periodStart":"2026-02-27","receivedOn":"2026-03-16","reference":"Transfer 1007"}
76	1	1795459916	cli:root	period	3	\N	close	{"clinicId":3,"closed":false,"periodEnd":"2026-03-12","periodStart":"2026-02-27"}	{"clinicId":3,"closed":true,"periodEnd":"2026-03-12","periodStart":"2026-02-27"}
77	1	1795459916	cli:root	payout	44	\N	create	\N	{"amountMinor":6920,"clinicId":3,"periodEnd":"2026-03-26","periodStart":"2026-03-13","receivedOn":"2026-04-05","reference":"Transfer 1008"}
78	1	1795459916	cli:root	period	3	\N	close	{"clinicId":3,"closed":false,"periodEnd":"2026-03-26","periodStart":"2026-03-13"}	{"clinicId":3,"closed":true,"periodEnd":"2026-03-26","periodStart":"2026-03-13"}
79	1	1795459916	cli:root	payout	45	\N	create	\N	{"amountMinor":6240,"clinicId":3,"periodEnd":"2026-04-09","periodStart":"2026-03-27","receivedOn":"2026-04-12","reference":"Transfer 1009"}
80	1	1795459916	cli:root	period	3	\N	close	{"clinicId":3,"closed":false,"periodEnd":"2026-04-09","periodStart":"2026-03-27"}	{"clinicId":3,"closed":true,"periodEnd":"2026-04-09","periodStart":"2026-03-27"}
81	1	1795459916	cli:root	payout	46	\N	create	\N	{"amountMinor":2832,"clinicId":3,"periodEnd":"2026-04-23","periodStart":"2026-04-10","receivedOn":"2026-05-02","reference":"Transfer 1010"}
82	1	1795459916	cli:root	period	3	\N	close	{"clinicId":3,"closed":false,"periodEnd":"2026-04-23","periodStart":"2026-04-10"}	{"clinicId":3,"closed":true,"periodEnd":"2026-04-23","periodStart":"2026-04-10"}
83	1	1795459916	cli:root	payout	47	\N	create	\N	{"amountMinor":4452,"clinicId":3,"periodEnd":"2026-05-07","periodStart":"2026-04-24","receivedOn":"2026-05-11","reference":"Transfer 1011"}
84	1	1795459916	cli:root	period	3	\N	close	{"clinicId":3,"closed":false,"periodEnd":"2026-05-07","periodStart":"2026-04-24"}	{"clinicId":3,"closed":true,"periodEnd":"2026-05-07","periodStart":"2026-04-24"}
85	1	1795459916	cli:root	payout	48	\N	create	\N	{"amountMinor":5736,"clinicId":3,"periodEnd":"2026-05-21","periodStart":"2026-05-08","receivedOn":"2026-05-31","reference":"Transfer 1012"}
86	1	1795459916	cli:root	period	3	\N	close	{"clinicId":3,"closed":false,"periodEnd":"2026-05-21","periodStart":"2026-05-08"}	{"clinicId":3,"closed":true,"periodEnd":"2026-05-21","periodStart":"2026-05-08"}
87	1	1795459916	cli:root	payout	49	\N	create	\N	{"amountMinor":6390,"clinicId":3,"periodEnd":"2026-06-18","periodStart":"2026-06-05","receivedOn":"2026-06-28","reference":"Transfer 1013"}
88	1	1795459916	cli:root	period	3	\N	close	{"clinicId":3,"closed":false,"periodEnd":"2026-06-18","periodStart":"2026-06-05"}	{"clinicId":3,"closed":true,"periodEnd":"2026-06-18","periodStart":"2026-06-05"}
89	1	1795459916	cli:root	payout	50	\N	create	\N	{"amountMinor":6125,"clinicId":3,"periodEnd":"2026-07-02","periodStart":"2026-06-19","receivedOn":"2026-07-07","reference":"Transfer 1014"}
90	1	1795459916	cli:root	period	3	\N	close	{"clinicId":3,"closed":false,"periodEnd":"2026-07-02","periodStart":"2026-06-19"}	{"clinicId":3,"closed":true,"periodEnd":"2026-07-02","periodStart":"2026-06-19"}
91	1	1795459916	cli:root	payout	51	\N	create	\N	{"amountMinor":3924,"clinicId":3,"periodEnd":"2026-07-16","periodStart":"2026-07-03","receivedOn":"2026-07-19","reference":"Transfer 1015"}
92	1	1795459916	cli:root	period	3	\N	close	{"clinicId":3,"closed":false,"periodEnd":"2026-07-16","periodStart":"2026-07-03"}	{"clinicId":3,"closed":true,"periodEnd":"2026-07-16","periodStart":"2026-07-03"}
93	1	1795459916	cli:root	payout	52	\N	create	\N	{"amountMinor":4507,"clinicId":3,"periodEnd":"2026-07-30","periodStart":"2026-07-17","receivedOn":"2026-08-04","reference":"Transfer 1016"}
94	1	1795459916	cli:root	period	3	\N	close	{"clinicId":3,"closed":false,"periodEnd":"2026-07-30","periodStart":"2026-07-17"}	{"clinicId":3,"closed":true,"periodEnd":"2026-07-30","periodStart":"2026-07-17"}
95	1	1795459916	cli:root	payout	53	\N	create	\N	{"amountMinor":4968,"clinicId":3,"periodEnd":"2026-08-13","periodStart":"2026-07-31","receivedOn":"2026-08-19","reference":"Transfer 1017"}
96	1	1795459916	cli:root	period	3	\N	close	{"clinicId":3,"closed":false,"periodEnd":"2026-08-13","periodStart":"2026-07-31"}	{"clinicId":3,"closed":true,"periodEnd":"2026-08-13","periodStart":"2026-07-31"}
97	1	1795459916	cli:root	payout	54	\N	create	\N	{"amountMinor":2448,"clinicId":3,"periodEnd":"2026-08-27","periodStart":"2026-08-14","receivedOn":"2026-09-05","reference":"Transfer 1018"}
98	1	1795459916	cli:root	period	3	\N	close	{"clinicId":3,"closed":false,"periodEnd":"2026-08-27","periodStart":"2026-08-14"}	{"clinicId":3,"closed":true,"periodEnd":"2026-08-27","periodStart":"2026-08-14"}
99	1	1795459916	cli:root	payout	55	\N	create	\N	{"amountMinor":3390,"clinicId":3,"periodEnd":"2026-09-10","periodStart":"2026-08-28","receivedOn":"2026-09-18","reference":"Transfer 1019"}
100	1	1795459916	cli:root	payout	56	\N	create	\N	{"amountMinor":6375,"clinicId":3,"periodEnd":"2026-09-24","periodStart":"2026-09-11","receivedOn":"2026-09-28","reference":"Transfer 1020"}
101	1	1795459916	cli:root	payout	57	\N	create	\N	{"amountMinor":5405,"clinicId":3,"periodEnd":"2026-10-08","periodStart":"2026-09-25","receivedOn":"2026-10-12","reference":"Transfer 1021"}
102	1	1795459916	cli:root	payout	58	\N	create	\N	{"amountMinor":3240,"clinicId":3,"periodEnd":"2026-10-22","periodStart":"2026-10-09","receivedOn":"2026-10-25","reference":"Transfer 1022"}
103	1	1795459916	cli:root	payout	59	\N	create	\N	{"amountMinor":7248,"clinicId":3,"periodEnd":"2026-11-05","periodStart":"2026-10-23","receivedOn":"2026-11-09","reference":"Transfer 1023"}
104	1	1795459916	cli:root	payout	60	\N	create	\N	{"amountMinor":772,"clinicId":3,"periodEnd":"2026-11-19","periodStart":"2026-11-06","receivedOn":"2026-11-22","reference":"Transfer 1024"}
105	1	1795459916	cli:root	payout	61	\N	create	\N	{"amountMinor":2300,"clinicId":4,"periodEnd":"2025-11-30","periodStart":"2025-11-24","receivedOn":"2025-12-07","reference":"Transfer 1000"}
106	1	1795459916	cli:root	period	4	\N	close	{"clinicId":4,"closed":false,"periodEnd":"2025-11-30","periodStart":"2025-11-24"}	{"clinicId":4,"closed":true,"periodEnd":"2025-11-30","periodStart":"2025-11-24"}
107	1	1795459916	cli:root	payout	62	\N	create	\N	{"amountMinor":1840,"clinicId":4,"periodEnd":"2025-12-07","periodStart":"2025-12-01","receivedOn":"2025-12-13","reference":"Transfer 1001"}
108	1	1795459916	cli:root	period	4	\N	close	{"clinicId":4,"closed":false,"periodEnd":"2025-12-07","periodStart":"2025-12-01"}	{"clinicId":4,"closed":true,"periodEnd":"2025-12-07","periodStart":"2025-12-01"}
109	1	1795459916	cli:root	payout	63	\N	create	\N	{"amountMinor":9250,"clinicId":4,"periodEnd":"2025-12-14","periodStart":"2025-12-08","receivedOn":"2025-12-17","reference":"Transfer 1002"}
110	1	1795459916	cli:root	period	4	\N	close	{"clinicId":4,"closed":false,"periodEnd":"2025-12-14","periodStart":"2025-12-08"}	{"clinicId":4,"closed":true,"periodEnd":"2025-12-14","periodStart":"2025-12-08"}
111	1	1795459916	cli:root	payout	64	\N	create	\N	{"amountMinor":2760,"clinicId":4,"periodEnd":"2025-12-21","periodStart":"2025-12-15","receivedOn":"2025-12-28","reference":"Transfer 1003"}
112	1	1795459916	cli:root	period	4	\N	close	{"clinicId":4,"closed":false,"periodEnd":"2025-12-21","periodStart":"2025-12-15"}	{"clinicId":4,"closed":true,"periodEnd":"2025-12-21","periodStart":"2025-12-15"}
113	1	1795459916	cli:root	payout	65	\N	create	\N	{"amountMinor":12210,"clinicId":4,"periodEnd":"2025-12-28","periodStart":"2025-12-22","receivedOn":"2026-01-01","reference":"Transfer 1004"}
114	1	1795459916	cli:root	period	4	\N	close	{"clinicId":4,"closed":false,"periodEnd":"2025-12-28","periodStart":"2025-12-22"}	{"clinicId":4,"closed":true,"periodEnd":"2025-12-28","periodStart":"2025-12-22"}
115	1	1795459916	cli:root	payout	66	\N	create	\N	{"amountMinor":9560,"clinicId":4,"periodEnd":"2026-01-04","periodStart":"2025-12-29","receivedOn":"2026-01-13","reference":"Transfer 1005"}
116	1	1795459916	cli:root	period	4	\N	close	{"clinicId":4,"closed":false,"periodEnd":"2026-01-04","periodStart":"2025-12-29"}	{"clinicId":4,"closed":true,"periodEnd":"2026-01-04","periodStart":"2025-12-29"}
117	1	1795459916	cli:root	payout	67	\N	create	\N	{"amountMinor":12435,"clinicId":4,"periodEnd":"2026-01-11","periodStart":"2026-01-05","receivedOn":"2026-01-14","reference":"Transfer 1006"}
118	1	1795459916	cli:root	period	4	\N	close	{"clinicId":4,"closed":false,"periodEnd":"2026-01-11","periodStart":"2026-01-05"}	{"clinicId":4,"closed":true,"periodEnd":"2026-01-11","periodStart":"2026-01-05"}
119	1	1795459916	cli:root	payout	68	\N	create	\N	{"amountMinor":12950,"clinicId":4,"periodEnd":"2026-01-18","periodStart":"2026-01-12","receivedOn":"2026-01-28","reference":"Transfer 1007"}
120	1	1795459916	cli:root	period	4	\N	close	{"clinicId":4,"closed":false,"periodEnd":"2026-01-18","periodStart":"2026-01-12"}	{"clinicId":4,"closed":true,"periodEnd":"2026-01-18","periodStart":"2026-01-12"}
121	1	1795459916	cli:root	payout	69	\N	create	\N	{"amountMinor":11050,"clinicId":4,"periodEnd":"2026-02-01","periodStart":"2026-01-26","receivedOn":"2026-02-06","reference":"Transfer 1008"}
122	1	1795459916	cli:root	period	4	\N	close	{"clinicId":4,"closed":false,"periodEnd":"2026-02-01","periodStart":"2026-01-26"}	{"clinicId":4,"closed":true,"periodEnd":"2026-02-01","periodStart":"2026-01-26"}
123	1	1795459916	cli:root	payout	70	\N	create	\N	{"amountMinor":2895,"clinicId":4,"periodEnd":"2026-02-08","periodStart":"2026-02-02","receivedOn":"2026-02-17","reference":"Transfer 1009"}
124	1	1795459916	cli:root	period	4	\N	close	{"clinicId":4,"closed":false,"periodEnd":"2026-02-08","periodStart":"2026-02-02"}	{"clinicId":4,"closed":true,"periodEnd":"2026-02-08","periodStart":"2026-02-02"}
125	1	1795459916	cli:root	payout	71	\N	create	\N	{"amountMinor":8400,"clinicId":4,"periodEnd":"2026-02-15","periodStart":"2026-02-09","receivedOn":"2026-02-25","reference":"Transfer 1010"}
126	1	1795459916	cli:root	period	4	\N	close	{"clinicId":4,"closed":false,"periodEnd":"2026-02-15","periodStart":"2026-02-09"}	{"clinicId":4,"closed":true,"periodEnd":"2026-02-15","periodStart":"2026-02-09"}
127	1	1795459916	cli:root	payout	72	\N	create	\N	{"amountMinor":-1300,"clinicId":4,"periodEnd":"2026-02-22","periodStart":"2026-02-16","receivedOn":"2026-02-25","reference":"Transfer 1011"}
128	1	1795459916	cli:root	period	4	\N	close	{"clinicId":4,"closed":false,"periodEnd":"2026-02-22","periodStart":"2026-02-16"}	{"clinicId":4,"closed":true,"periodEnd":"2026-02-22","periodStart":"2026-02-16"}
129	1	1795459916	cli:root	payout	73	\N	create	\N	{"amountMinor":10200,"clinicId":4,"periodEnd":"2026-03-01","periodStart":"2026-02-23","receivedOn":"2026-03-06","reference":"Transfer 1012"}
130	1	1795459916	cli:root	period	4	\N	close	{"clinicId":4,"closed":false,"periodEnd":"2026-03-01","periodStart":"2026-02-23"}	{"clinicId":4,"closed":true,"periodEnd":"2026-03-01","periodStart":"2026-02-23"}
131	1	1795459916	cli:root	payout	74	\N	create	\N	{"amountMinor":12200,"clinicId":4,"periodEnd":"2026-03-15","periodStart":"2026-03-09","receivedOn":"2026-03-19","reference":"Transfer 1013"}
132	1	1795459916	cli:root	period	4	\N	close	{"clinicId":4,"closed":false,"periodEnd":"2026-03-15","periodStart":"2026-03-09"}	{"clinicId":4,"closed":true,"periodEnd":"2026-03-15","periodStart":"2026-03-09"}
133	1	1795459916	cli:root	payout	75	\N	create	\N	{"amountMinor":3250,"clinicId":4,"periodEnd":"2026-03-22","periodStart":"2026-03-16","receivedOn":"2026-03-29","reference":"Transfer 1014"}
134	1	1795459916	cli:root	period	4	\N	close	{"clinicId":4,"closed":false,"periodEnd":"2026-03-22","periodStart":"2026-03-16"}	{"clinicId":4,"closed":true,"periodEnd":"2026-03-22","periodStart":"2026-03-16"}
135	1	1795459916	cli:root	payout	76	\N	create	\N	{"amountMinor":550,"clinicId":4,"periodEnd":"2026-03-29","periodStart":"2026-03-23","receivedOn":"2026-04-04","reference":"Transfer 1015"}
136	1	1795459916	cli:root	period	4	\N	close	{"clinicId":4,"closed":false,"periodEnd":"2026-03-29","periodStart":"2026-03-23"}	{"clinicId":4,"closed":true,"periodEnd":"2026-03-29","periodStart":"2026-03-23"}
137	1	1795459916	cli:root	payout	77	\N	create	\N	{"amountMinor":7583,"clinicId":4,"periodEnd":"2026-04-05","periodStart":"2026-03-30","receivedOn":"2026-04-15","reference":"Transfer 1016"}
138	1	1795459916	cli:root	period	4	\N	close	{"clinicId":4,"closed":false,"periodEnd":"2026-04-05","periodStart":"2026-03-30"}	{"clinicId":4,"closed":true,"periodEnd":"2026-04-05","periodStart":"2026-03-30"}
139	1	1795459916	cli:root	payout	78	\N	create	\N	{"amountMinor":9400,"clinicId":4,"periodEnd":"2026-04-12","periodStart":"2026-04-06","receivedOn":"2026-04-16","reference":"Transfer 1017"}
140	1	1795459916	cli:root	period	4	\N	close	{"clinicId":4,"closed":false,"periodEnd":"2026-04-12","periodStart":"2026-04-06"}	{"clinicId":4,"closed":true,"periodEnd":"2026-04-12","periodStart":"2026-04-06"}
141	1	1795459916	cli:root	payout	79	\N	create	\N	{"amountMinor":4800,"clinicId":4,"periodEnd":"2026-04-19","periodStart":"2026-04-13","receivedOn":"2026-04-23","reference":"Transfer 1018"}
142	1	1795459916	cli:root	period	4	\N	close	{"clinicId":4,"closed":false,"periodEnd":"2026-04-19","periodStart":"2026-04-13"}	{"clinicId":4,"closed":true,"periodEnd":"2026-04-19","periodStart":"2026-04-13"}
143	1	1795459916	cli:root	payout	80	\N	create	\N	{"amountMinor":3910,"clinicId":4,"periodEnd":"2026-05-03","periodStart":"2026-04-27","receivedOn":"2026-05-07","reference":"Transfer 1019"}
144	1	1795459916	cli:root	period	4	\N	close	{"clinicId":4,"closed":false,"periodEnd":"2026-05-03","periodStart":"2026-04-27"}	{"clinicId":4,"closed":true,"periodEnd":"2026-05-03","periodStart":"2026-04-27"}
145	1	1795459916	cli:root	payout	81	\N	create	\N	{"amountMinor":5960,"clinicId":4,"periodEnd":"2026-05-10","periodStart":"2026-05-04","receivedOn":"2026-05-16","reference":"Transfer 1020"}
146	1	1795459916	cli:root	period	4	\N	close	{"clinicId":4,"closed":false,"periodEnd":"2026-05-10","periodStart":"2026-05-04"}	{"clinicId":4,"closed":true,"periodEnd":"2026-05-10","periodStart":"2026-05-04"}
147	1	1795459916	cli:root	payout	82	\N	create	\N	{"amountMinor":2410,"clinicId":4,"periodEnd":"2026-05-17","periodStart":"2026-05-11","receivedOn":"2026-05-25","reference":"Transfer 1021"}
148	1	1795459916	cli:root	period	4	\N	close	{"clinicId":4,"closed":false,"periodEnd":"2026-05-17","periodStart":"2026-05-11"}	{"clinicId":4,"closed":true,"periodEnd":"2026-05-17","periodStart":"2026-05-11"}
149	1	1795459916	cli:root	payout	83	\N	create	\N	{"amountMinor":4050,"clinicId":4,"periodEnd":"2026-05-24","periodStart":"2026-05-18","receivedOn":"2026-05-29","reference":"Transfer 1022"}
150	1	1795459916	cli:root	period	4	\N	close	{"clinicId":4,"closed":false,"periodEnd":"2026-05-24","periodStart":"2026-05-18"}	{"clinicId":4,"closed":true,"periodEnd":"2026-05-24","periodStart":"2026-05-18"}
151	1	1795459916	cli:root	payout	84	\N	create	\N	{"amountMinor":4550,"clinicId":4,"periodEnd":"2026-05-31","periodStart":"2026-05-25","receivedOn":"2026-06-07","reference":"Transfer 1023"}
152	1	1795459916	cli:root	period	4	\N	close	{"clinicId":4,"closed":false,"periodEnd":"2026-05-31","periodStart":"2026-05-25"}	{"clinicId":4,"closed":true,"periodEnd":"2026-05-31","periodStart":"2026-05-25"}
153	1	1795459916	cli:root	payout	85	\N	create	\N	{"amountMinor":7900,"clinicId":4,"periodEnd":"2026-06-07","periodStart":"2026-06-01","receivedOn":"2026-06-15","reference":"Transfer 1024"}
154	1	1795459916	cli:root	period	4	\N	close	{"clinicId":4,"closed":false,"periodEnd":"2026-06-07","periodStart":"2026-06-01"}	{"clinicId":4,"closed":true,"periodEnd":"2026-06-07","periodStart":"2026-06-01"}
155	1	1795459916	cli:root	payout	86	\N	create	\N	{"amountMinor":5000,"clinicId":4,"periodEnd":"2026-06-14","periodStart":"2026-06-08","receivedOn":"2026-06-19","reference":"Transfer 1025"}
156	1	1795459916	cli:root	period	4	\N	close	{"clinicId":4,"closed":false,"periodEnd":"2026-06-14","periodStart":"2026-06-08"}	{"clinicId":4,"closed":true,"periodEnd":"2026-06-14","periodStart":"2026-06-08"}
157	1	1795459916	cli:root	payout	87	\N	create	\N	{"amountMinor":550,"clinicId":4,"periodEnd":"2026-06-21","periodStart":"2026-06-15","receivedOn":"2026-07-01","reference":"Transfer 1026"}
158	1	1795459916	cli:root	period	4	\N	close	{"clinicId":4,"closed":false,"periodEnd":"2026-06-21","periodStart":"2026-06-15"}	{"clinicId":4,"closed":true,"periodEnd":"2026-06-21","periodStart":"2026-06-15"}
159	1	1795459916	cli:root	payout	88	\N	create	\N	{"amountMinor":9700,"clinicId":4,"periodEnd":"2026-06-28","periodStart":"2026-06-22","receivedOn":"2026-07-05","reference":"Transfer 1027"}
160	1	1795459916	cli:root	period	4	\N	close	{"clinicId":4,"closed":false,"periodEnd":"2026-06-28","periodStart":"2026-06-22"}	{"clinicId":4,"closed":true,"periodEnd":"2026-06-28","periodStart":"2026-06-22"}
161	1	1795459916	cli:root	payout	89	\N	create	\N	{"amountMinor":2650,"clinicId":4,"periodEnd":"2026-07-05","periodStart":"2026-06-29","receivedOn":"2026-07-13","reference":"Transfer 1028"}
162	1	1795459916	cli:root	period	4	\N	close	{"clinicId":4,"closed":false,"periodEnd":"2026-07-05","periodStart":"2026-06-29"}	{"clinicId":4,"closed":true,"periodEnd":"2026-07-05","periodStart":"2026-06-29"}
163	1	1795459916	cli:root	payout	90	\N	create	\N	{"amountMinor":4990,"clinicId":4,"periodEnd":"2026-07-12","periodStart":"2026-07-06","receivedOn":"2026-07-18","reference":"Transfer 1029"}
164	1	1795459916	cli:root	period	4	\N	close	{"clinicId":4,"closed":false,"periodEnd":"2026-07-12","periodStart":"2026-07-06"}	{"clinicId":4,"closed":true,"periodEnd":"2026-07-12","periodStart":"2026-07-06"}
165	1	1795459916	cli:root	payout	91	\N	create	\N	{"amountMinor":6500,"clinicId":4,"periodEnd":"2026-07-19","periodStart":"2026-07-13","receivedOn":"2026-07-22","reference":"Transfer 1030"}
166	1	1795459916	cli:root	period	4	\N	close	{"clinicId":4,"closed":false,"periodEnd":"2026-07-19","periodStart":"2026-07-13"}	{"clinicId":4,"closed":true,"periodEnd":"2026-07-19","periodStart":"2026-07-13"}
167	1	1795459916	cli:root	payout	92	\N	create	\N	{"amountMinor":2200,"clinicId":4,"periodEnd":"2026-07-26","periodStart":"2026-07-20","receivedOn":"2026-07-30","reference":"Transfer 1031"}
168	1	1795459916	cli:root	period	4	\N	close	{"clinicId":4,"closed":false,"periodEnd":"2026-07-26","periodStart":"2026-07-20"}	{"clinicId":4,"closed":true,"periodEnd":"2026-07-26","periodStart":"2026-07-20"}
169	1	1795459916	cli:root	payout	93	\N	create	\N	{"amountMinor":8365,"clinicId":4,"periodEnd":"2026-08-02","periodStart":"2026-07-27","receivedOn":"2026-08-06","reference":"Transfer 1032"}
170	1	1795459916	cli:root	period	4	\N	close	{"clinicId":4,"closed":false,"periodEnd":"2026-08-02","periodStart":"2026-07-27"}	{"clinicId":4,"closed":true,"periodEnd":"2026-08-02","periodStart":"2026-07-27"}
171	1	1795459916	cli:root	payout	94	\N	create	\N	{"amountMinor":5900,"clinicId":4,"periodEnd":"2026-08-09","periodStart":"2026-08-03","receivedOn":"2026-08-15","reference":"Transfer 1033"}
172	1	1795459916	cli:root	period	4	\N	close	{"clinicId":4,"closed":false,"periodEnd":"2026-08-09","periodStart":"2026-08-03"}	{"clinicId":4,"closed":true,"periodEnd":"2026-08-09","periodStart":"2026-08-03"}
173	1	1795459916	cli:root	payout	95	\N	create	\N	{"amountMinor":6900,"clinicId":4,"periodEnd":"2026-08-16","periodStart":"2026-08-10","receivedOn":"2026-08-20","reference":"Transfer 1034"}
174	1	1795459916	cli:root	period	4	\N	close	{"clinicId":4,"closed":false,"periodEnd":"2026-08-16","periodStart":"2026-08-10"}	{"clinicId":4,"closed":true,"periodEnd":"2026-08-16","periodStart":"2026-08-10"}
175	1	1795459916	cli:root	payout	96	\N	create	\N	{"amountMinor":900,"clinicId":4,"periodEnd":"2026-08-23","periodStart":"2026-08-17","receivedOn":"2026-09-01","reference":"Transfer 1035"}
176	1	1795459916	cli:root	period	4	\N	close	{"clinicId":4,"closed":false,"periodEnd":"2026-08-23","periodStart":"2026-08-17"}	{"clinicId":4,"closed":true,"periodEnd":"2026-08-23","periodStart":"2026-08-17"}
177	1	1795459916	cli:root	payout	97	\N	create	\N	{"amountMinor":4850,"clinicId":4,"periodEnd":"2026-08-30","periodStart":"2026-08-24","receivedOn":"2026-09-05","reference":"Transfer 1036"}
178	1	1795459916	cli:root	period	4	\N	close	{"clinicId":4,"closed":false,"periodEnd":"2026-08-30","periodStart":"2026-08-24"}	{"clinicId":4,"closed":true,"periodEnd":"2026-08-30","periodStart":"2026-08-24"}
179	1	1795459916	cli:root	payout	98	\N	create	\N	{"amountMinor":4883,"clinicId":4,"periodEnd":"2026-09-06","periodStart":"2026-08-31","receivedOn":"2026-09-14","reference":"Transfer 1037"}
180	1	1795459916	cli:root	period	4	\N	close	{"clinicId":4,"closed":false,"periodEnd":"2026-09-06","periodStart":"2026-08-31"}	{"clinicId":4,"closed":true,"periodEnd":"2026-09-06","periodStart":"2026-08-31"}
181	1	1795459916	cli:root	payout	99	\N	create	\N	{"amountMinor":900,"clinicId":4,"periodEnd":"2026-09-13","periodStart":"2026-09-07","receivedOn":"2026-09-23","reference":"Transfer 1038"}
182	1	1795459916	cli:root	period	4	\N	close	{"clinicId":4,"closed":false,"periodEnd":"2026-09-13","periodStart":"2026-09-07"}	{"clinicId":4,"closed":true,"periodEnd":"2026-09-13","periodStart":"2026-09-07"}
183	1	1795459916	cli:root	payout	100	\N	create	\N	{"amountMinor":7100,"clinicId":4,"periodEnd":"2026-09-20","periodStart":"2026-09-14","receivedOn":"2026-09-26","reference":"Transfer 1039"}
184	1	1795459916	cli:root	period	4	\N	close	{"clinicId":4,"closed":false,"periodEnd":"2026-09-20","periodStart":"2026-09-14"}	{"clinicId":4,"closed":true,"periodEnd":"2026-09-20","periodStart":"2026-09-14"}
185	1	1795459916	cli:root	payout	101	\N	create	\N	{"amountMinor":5700,"clinicId":4,"periodEnd":"2026-09-27","periodStart":"2026-09-21","receivedOn":"2026-10-04","reference":"Transfer 1040"}
186	1	1795459916	cli:root	period	4	\N	close	{"clinicId":4,"closed":false,"periodEnd":"2026-09-27","periodStart":"2026-09-21"}	{"clinicId":4,"closed":true,"periodEnd":"2026-09-27","periodStart":"2026-09-21"}
187	1	1795459916	cli:root	payout	102	\N	create	\N	{"amountMinor":8000,"clinicId":4,"periodEnd":"2026-10-04","periodStart":"2026-09-28","receivedOn":"2026-10-12","reference":"Transfer 1041"}
188	1	1795459916	cli:root	period	4	\N	close	{"clinicId":4,"closed":false,"periodEnd":"2026-10-04","periodStart":"2026-09-28"}	{"clinicId":4,"closed":true,"periodEnd":"2026-10-04","periodStart":"2026-09-28"}
189	1	1795459916	cli:root	payout	103	\N	create	\N	{"amountMinor":8940,"clinicId":4,"periodEnd":"2026-10-18","periodStart":"2026-10-12","receivedOn":"2026-10-25","reference":"Transfer 1042"}
190	1	1795459916	cli:root	payout	104	\N	create	\N	{"amountMinor":5510,"clinicId":4,"periodEnd":"2026-10-25","periodStart":"2026-10-19","receivedOn":"2026-11-02","reference":"Transfer 1043"}
191	1	1795459916	cli:root	payout	105	\N	create	\N	{"amountMinor":7450,"clinicId":4,"periodEnd":"2026-11-01","periodStart":"2026-10-26","receivedOn":"2026-11-06","reference":"Transfer 1044"}
192	1	1795459916	cli:root	payout	106	\N	create	\N	{"amountMinor":6250,"clinicId":4,"periodEnd":"2026-11-08","periodStart":"2026-11-02","receivedOn":"2026-11-17","reference":"Transfer 1045"}
193	1	1795459916	cli:root	payout	107	\N	create	\N	{"amountMinor":10000,"clinicId":4,"periodEnd":"2026-11-15","periodStart":"2026-11-09","receivedOn":"2026-11-23","reference":"Transfer 1046"}
194	1	1795459916	cli:root	payout	108	\N	create	\N	{"amountMinor":2990,"clinicId":4,"periodEnd":"2026-11-22","periodStart":"2026-11-16","receivedOn":"2026-11-23","reference":"Transfer 1047"}
\.


--
-- Data for Name: book; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.book (id, name, currencycode, currencyminordigits, timezone, roundingrule, roundingscope, revision, locale) FROM stdin;
1	sqlite-v9	USD	2	Etc/UTC	half-away-from-zero	per-line	0	en_US
\.


--
-- Data for Name: clinic; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.clinic (id, bookid, name, schedulekind, scheduleanchor, isarchived) FROM stdin;
1	1	Glow Aesthetics	monthly	\N	f
2	1	Harbor Skin Clinic	semimonthly	\N	f
3	1	Lumen Dermatology	biweekly	2026-01-02	f
4	1	Northside Day Spa	weekly	monday	f
\.


--
-- Data for Name: clinicdaytotal; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.clinicdaytotal (bookid, clinicid, date, salecount, quantity, revenueminor, costminor, profitminor, commissionminor, commissionexact) FROM stdin;
1	1	2025-12-04	6	6	33800	11700	22100	9280	92800000
1	1	2026-03-16	4	5	22000	7500	14500	5800	58000000
1	3	2026-08-12	6	7	32000	11000	21000	3840	38400000
1	1	2026-04-20	2	4	22000	7600	14400	5760	57600000
1	1	2026-07-16	4	4	16420	5900	10520	4428	44280000
1	3	2025-12-03	5	7	29800	10000	19800	3576	35760000
1	4	2026-10-17	6	7	27680	9800	17880	8940	89400000
1	1	2026-01-01	4	6	34600	12200	22400	9180	91800000
1	1	2025-12-18	1	1	2600	800	1800	720	7200000
1	2	2026-04-03	4	4	15800	5200	10600	5830	58300000
1	3	2026-01-21	5	6	27690	9800	17890	3323	33228000
1	2	2026-08-11	3	3	14800	5200	9600	5520	55200000
1	3	2026-11-11	1	1	3230	1200	2030	388	3876000
1	1	2026-08-17	3	4	17900	6100	11800	4720	47200000
1	1	2026-03-12	4	5	24500	8400	16100	7100	71000000
1	1	2026-07-06	4	6	19000	6300	12700	5080	50800000
1	2	2026-10-06	4	6	21700	7300	14400	8280	82800000
1	1	2026-04-06	4	5	24420	9600	14820	5928	59280000
1	1	2026-11-02	4	5	20400	6800	13600	5880	58800000
1	3	2026-07-08	1	1	3800	1200	2600	456	4560000
1	1	2026-06-22	2	3	21200	7600	13600	5660	56600000
1	2	2026-07-31	1	1	3800	1200	2600	1495	14950000
1	4	2026-02-21	1	-1	-3800	-1200	-2600	-1300	-13000000
1	1	2026-04-23	6	6	38300	14400	23900	10000	100000000
1	1	2025-12-25	4	2	9000	2900	6100	2660	26600000
1	2	2026-03-06	1	1	3200	1000	2200	1210	12100000
1	2	2026-07-17	4	5	22100	7900	14200	8166	81650000
1	1	2026-04-27	3	3	13600	4600	9000	3600	36000000
1	1	2026-01-15	2	2	10400	3600	6800	2720	27200000
1	2	2026-05-15	4	4	14900	4900	10000	5500	55000000
1	1	2026-02-02	1	1	3800	1200	2600	1040	10400000
1	4	2026-10-31	3	4	23100	8200	14900	7450	74500000
1	3	2026-04-15	5	5	23600	8800	14800	2832	28320000
1	1	2026-07-27	5	7	40300	14300	26000	10400	104000000
1	2	2026-10-23	6	6	28060	10600	17460	10041	100395000
1	1	2026-08-31	1	1	8900	3300	5600	2240	22400000
1	3	2026-03-25	5	7	37820	14200	23620	4538	45384000
1	1	2026-01-12	4	4	26100	9300	16800	6940	69400000
1	1	2026-02-23	2	3	7200	2400	4800	1920	19200000
1	2	2026-05-29	3	4	19500	6800	12700	6985	69850000
1	2	2026-01-16	4	5	19010	6800	12210	4791	47905000
1	4	2026-11-21	2	2	9580	3600	5980	2990	29900000
1	1	2026-10-26	1	1	5400	1900	3500	1400	14000000
1	1	2026-05-14	1	2	9000	3000	6000	2400	24000000
1	3	2026-05-20	6	7	46300	16700	29600	5556	55560000
1	1	2026-03-09	6	8	35700	12900	22800	9120	91200000
1	2	2026-10-09	3	3	17400	6000	11400	6555	65550000
1	1	2026-04-09	5	7	27100	9100	18000	7200	72000000
1	2	2026-03-03	2	4	17760	6400	11360	6248	62480000
1	2	2026-02-17	1	2	10800	3800	7000	3850	38500000
1	1	2026-10-08	6	7	26120	9700	16420	6568	65680000
1	1	2026-01-29	1	2	5200	1600	3600	1440	14400000
1	2	2026-10-16	6	7	23000	7400	15600	8971	89700000
1	1	2026-01-22	6	8	31800	10600	21200	7600	76000000
1	2	2026-03-20	1	1	6800	2400	4400	2420	24200000
1	1	2026-07-23	1	2	19000	8400	10600	4240	42400000
1	1	2026-04-02	4	4	16720	6200	10520	4208	42080000
1	4	2026-06-27	5	6	29400	10000	19400	9700	97000000
1	1	2026-06-15	6	8	29440	9900	19540	7816	78160000
1	2	2026-08-21	3	3	17500	6900	10600	6096	60950000
1	2	2026-03-31	1	1	3800	1200	2600	1430	14300000
1	2	2026-01-13	3	3	15700	5700	10000	5500	55000000
1	1	2026-03-30	6	8	42760	15400	27360	11384	113840000
1	2	2026-07-14	1	1	1500	400	1100	633	6325000
1	2	2025-11-28	4	4	14000	4800	9200	5060	50600000
1	4	2026-01-03	5	4	30920	11800	19120	9560	95600000
1	4	2026-09-26	2	3	17400	6000	11400	5700	57000000
1	4	2026-08-01	3	5	27530	10800	16730	8365	83650000
1	3	2026-06-24	6	7	21400	7000	14400	2568	25680000
1	4	2025-12-06	2	2	5480	1800	3680	1840	18400000
1	2	2026-06-19	2	2	8440	3100	5340	3071	30705000
1	2	2026-02-20	5	6	22000	7600	14400	7920	79200000
1	1	2026-09-24	5	5	27925	10700	17225	6890	68900000
1	2	2026-05-01	6	8	29700	9800	19900	10945	109450000
1	2	2026-04-24	4	2	10200	3700	6500	3575	35750000
1	1	2026-02-05	2	2	10600	3600	7000	3020	30200000
1	2	2026-06-23	6	7	32400	11700	20700	11903	119025000
1	3	2026-05-13	1	1	1500	400	1100	180	1800000
1	3	2026-07-15	6	7	28900	9900	19000	3468	34680000
1	2	2026-11-17	1	2	7600	2400	5200	2990	29900000
1	1	2026-02-19	5	3	17600	6200	11400	4560	45600000
1	2	2026-06-16	5	5	20200	6600	13600	7820	78200000
1	4	2026-11-14	6	7	27100	9100	18000	9000	90000000
1	1	2026-08-24	6	7	42885	18400	24485	10132	101320000
1	4	2026-04-04	4	4	24465	9300	15165	7583	75825000
1	3	2026-09-16	6	6	20125	7100	13025	2415	24150000
1	1	2026-06-08	3	4	23440	8400	15040	6676	66760000
1	4	2026-08-22	1	1	2600	800	1800	900	9000000
1	3	2026-05-06	4	4	20000	6800	13200	2400	24000000
1	1	2026-06-11	3	3	8600	2700	5900	2360	23600000
1	4	2026-08-29	5	3	15900	6200	9700	4850	48500000
1	2	2026-05-22	6	6	30200	11000	19200	10560	105600000
1	1	2026-06-04	2	3	19300	7000	12300	4920	49200000
1	1	2026-10-05	2	2	12700	4500	8200	3280	32800000
1	3	2026-03-04	3	3	14100	4900	9200	1692	16920000
1	1	2026-07-09	2	2	9400	3200	6200	2700	27000000
1	2	2026-09-18	4	4	15800	5500	10300	5924	59225000
1	3	2026-10-21	2	2	7300	2500	4800	876	8760000
1	2	2026-06-26	6	7	28300	9700	18600	10696	106950000
1	2	2026-06-05	1	1	3800	1200	2600	1495	14950000
1	2	2026-09-08	2	4	24400	8600	15800	9085	90850000
1	2	2026-07-07	3	3	15100	5100	10000	5750	57500000
1	2	2026-09-11	5	6	31100	11500	19600	11271	112700000
1	2	2026-02-27	6	6	25900	8800	17100	9405	94050000
1	3	2026-07-01	5	6	29640	10300	19340	3557	35568000
1	1	2026-06-29	2	2	6620	2200	4420	1768	17680000
1	3	2025-11-26	4	7	39560	16600	22960	4747	47472000
1	2	2026-06-12	6	6	32700	12200	20500	11788	117875000
1	1	2026-01-19	2	2	10250	3700	6550	2620	26200000
1	2	2026-11-13	3	3	7500	2300	5200	2991	29900000
1	2	2026-03-24	1	1	6800	2400	4400	2420	24200000
1	2	2026-04-10	3	4	13100	4200	8900	4895	48950000
1	3	2026-04-08	4	4	24400	8600	15800	2928	29280000
1	2	2026-07-10	5	7	33900	11800	22100	12708	127075000
1	4	2026-06-06	5	6	23400	7600	15800	7900	79000000
1	3	2026-03-11	3	3	21200	7600	13600	2544	25440000
1	2	2026-05-12	6	8	32000	10700	21300	11715	117150000
1	2	2026-08-28	1	1	3500	1300	2200	1265	12650000
1	2	2026-08-04	5	5	15775	5300	10475	6023	60231250
1	4	2026-03-21	6	4	9200	2700	6500	3250	32500000
1	2	2026-04-17	3	3	14600	5000	9600	5280	52800000
1	3	2026-10-28	5	6	20800	6700	14100	2496	24960000
1	2	2025-11-25	5	6	21740	8400	13340	6732	67320000
1	1	2026-10-15	4	5	23140	9600	13540	5416	54160000
1	1	2026-09-10	5	6	27220	9600	17620	7268	72680000
1	2	2025-12-05	2	2	4100	1200	2900	1595	15950000
1	4	2026-05-23	3	3	12100	4000	8100	4050	40500000
1	1	2026-05-28	6	7	28160	9500	18660	7464	74640000
1	1	2026-02-12	1	1	5400	1900	3500	1400	14000000
1	3	2026-09-09	4	5	9650	2800	6850	1158	11580000
1	3	2026-10-07	4	5	26540	10200	16340	3185	31848000
1	3	2025-12-10	3	4	26200	9300	16900	3144	31440000
1	3	2026-07-29	3	4	23960	9000	14960	2875	28752000
1	3	2026-02-25	4	4	21900	8400	13500	2628	26280000
1	4	2026-03-14	4	6	37800	13400	24400	12200	122000000
1	1	2026-09-28	3	4	19400	6700	12700	5080	50800000
1	4	2026-09-12	1	1	2600	800	1800	900	9000000
1	1	2026-05-21	2	0	4100	2300	1800	720	7200000
1	3	2026-02-11	3	3	18200	7200	11000	2184	21840000
1	4	2026-06-20	1	1	1500	400	1100	550	5500000
1	1	2025-12-15	1	1	6800	2400	4400	1980	19800000
1	2	2026-08-18	5	3	18165	6900	11265	6477	64773750
1	4	2026-08-15	5	5	20900	7100	13800	6900	69000000
1	3	2026-04-01	5	7	27600	9300	18300	3312	33120000
1	2	2026-01-30	6	7	29700	10100	19600	7700	77000000
1	4	2026-04-18	3	4	14400	4800	9600	4800	48000000
1	3	2025-12-24	3	4	18200	6600	11600	2184	21840000
1	1	2026-05-25	5	6	25900	9000	16900	7200	72000000
1	1	2026-09-07	4	5	23200	7800	15400	6600	66000000
1	1	2026-07-02	4	7	16600	5100	11500	4600	46000000
1	3	2026-01-28	4	5	24900	8800	16100	2988	29880000
1	1	2026-11-19	5	7	29640	10700	18940	7728	77280000
1	4	2026-07-11	6	5	14580	4600	9980	4990	49900000
1	4	2026-02-14	5	6	25000	8200	16800	8400	84000000
1	1	2026-10-19	3	3	9460	3300	6160	2464	24640000
1	2	2026-10-02	3	3	13220	4700	8520	4899	48990000
1	4	2026-02-07	5	3	11590	4000	7590	2895	28950000
1	2	2026-10-13	1	2	13600	4800	8800	5060	50600000
1	2	2026-01-06	4	4	15440	5700	9740	5357	53570000
1	2	2026-02-10	4	4	17200	6100	11100	6105	61050000
1	4	2026-07-18	5	6	19100	6100	13000	6500	65000000
1	1	2026-08-06	6	7	28400	9500	18900	6020	60200000
1	2	2026-10-30	1	1	6800	2400	4400	2530	25300000
1	2	2026-08-14	1	1	3200	1000	2200	1265	12650000
1	3	2026-03-18	5	5	19850	7200	12650	2382	23820000
1	4	2026-07-04	2	2	8000	2700	5300	2650	26500000
1	2	2026-09-25	4	4	23100	8800	14300	8223	82225000
1	4	2026-08-08	4	4	17900	6100	11800	5900	59000000
1	4	2025-11-29	1	1	7200	2600	4600	2300	23000000
1	4	2025-12-13	5	5	29500	11000	18500	9250	92500000
1	1	2026-03-02	3	4	23900	8500	15400	6820	68200000
1	2	2026-05-08	5	5	24100	8400	15700	8635	86350000
1	1	2026-04-16	1	1	4200	1600	2600	1040	10400000
1	1	2025-12-29	2	2	7220	2400	4820	1928	19280000
1	2	2026-07-03	2	2	9400	3200	6200	3565	35650000
1	2	2026-06-02	6	8	38710	13900	24810	14266	142657500
1	1	2026-05-04	6	6	22900	7700	15200	6080	60800000
1	2	2026-09-04	1	1	1500	400	1100	633	6325000
1	2	2026-03-13	1	1	6800	2400	4400	2420	24200000
1	1	2026-11-09	5	4	23400	8500	14900	6400	64000000
1	2	2026-01-02	6	6	33800	12600	21200	11660	116600000
1	2	2026-04-21	5	6	31940	12400	19540	10747	107470000
1	1	2026-06-18	2	3	23300	8500	14800	5920	59200000
1	1	2026-04-30	4	4	14390	5000	9390	3756	37560000
1	3	2026-02-18	5	6	15800	4800	11000	1896	18960000
1	2	2026-07-21	1	1	1500	400	1100	633	6325000
1	4	2025-12-20	3	3	8120	2600	5520	2760	27600000
1	2	2026-06-30	3	3	17600	6200	11400	6556	65550000
1	3	2026-10-14	2	3	19700	7100	12600	2364	23640000
1	1	2026-07-13	3	6	30920	13200	17720	7088	70880000
1	2	2026-03-17	1	1	3200	1000	2200	1210	12100000
1	1	2026-01-05	5	5	28100	9800	18300	7540	75400000
1	4	2026-06-13	2	3	15300	5300	10000	5000	50000000
1	1	2026-04-13	2	2	10600	3600	7000	3020	30200000
1	1	2026-02-26	1	1	3500	1300	2200	880	8800000
1	1	2025-11-27	6	7	27000	8900	18100	7240	72400000
1	1	2026-09-17	3	3	19100	7700	11400	4560	45600000
1	3	2026-06-10	3	3	16800	5800	11000	2016	20160000
1	4	2026-01-31	6	7	33500	11400	22100	11050	110500000
1	1	2026-05-18	1	1	3800	1200	2600	1040	10400000
1	2	2026-09-29	1	1	5400	1900	3500	2013	20125000
1	4	2026-03-28	1	1	1500	400	1100	550	5500000
1	2	2026-03-27	4	5	31800	11400	20400	11220	112200000
1	1	2026-10-22	5	3	6660	2200	4460	1784	17840000
1	2	2025-12-30	6	7	33300	12000	21300	11715	117150000
1	2	2025-12-23	4	4	20700	7300	13400	7370	73700000
1	1	2025-12-01	1	1	5400	1900	3500	1400	14000000
1	1	2026-03-19	1	1	7200	2600	4600	1840	18400000
1	1	2026-01-26	1	1	3150	1300	1850	740	7400000
1	1	2026-10-12	1	1	1500	400	1100	440	4400000
1	2	2026-01-20	3	4	18400	6200	12200	6710	67100000
1	1	2026-03-26	5	5	19420	7600	11820	4728	47280000
1	2	2026-02-03	5	6	31000	11500	19500	10725	107250000
1	2	2026-04-28	3	4	26060	9500	16560	9108	91080000
1	3	2026-07-22	1	2	13600	4800	8800	1632	16320000
1	2	2026-10-20	4	4	12800	4200	8600	4946	49450000
1	2	2026-05-26	2	2	8300	2700	5600	3080	30800000
1	2	2026-08-25	6	8	34500	11700	22800	13110	131100000
1	3	2026-09-02	3	5	18600	6200	12400	2232	22320000
1	3	2026-09-30	4	4	18500	6300	12200	2220	22200000
1	1	2026-08-10	5	5	25360	9000	16360	6764	67640000
1	3	2026-08-05	2	2	9400	3200	6200	1128	11280000
1	3	2026-04-29	4	4	17100	6000	11100	2052	20520000
1	1	2026-06-01	4	5	13100	4000	9100	3640	36400000
1	4	2026-02-28	4	5	31500	11100	20400	10200	102000000
1	4	2026-10-03	5	5	24700	8700	16000	8000	80000000
1	2	2026-02-13	6	6	28930	11100	17830	9807	98065000
1	2	2025-12-26	1	2	7600	2400	5200	2860	28600000
1	4	2026-09-05	5	5	15465	5700	9765	4883	48825000
1	2	2026-09-15	1	2	7000	2600	4400	2530	25300000
1	3	2026-11-18	1	1	3200	1000	2200	384	3840000
1	2	2026-11-10	4	5	28850	11100	17750	10206	102062500
1	4	2026-11-07	5	5	18900	6400	12500	6250	62500000
1	4	2025-12-27	6	8	37720	13300	24420	12210	122100000
1	1	2026-11-05	5	6	17900	5800	12100	4840	48400000
1	3	2026-11-04	6	9	39600	13400	26200	4752	47520000
1	1	2026-09-21	4	5	20300	6700	13600	5660	56600000
1	4	2026-05-02	2	2	12320	4500	7820	3910	39100000
1	4	2026-05-09	5	3	19220	7300	11920	5960	59600000
1	3	2026-01-14	3	3	14500	5100	9400	1740	17400000
1	1	2026-08-13	4	5	24500	8900	15600	6460	64600000
1	2	2026-05-05	2	2	5800	1800	4000	2200	22000000
1	1	2026-11-23	6	8	39210	15400	23810	9524	95240000
1	2	2026-07-24	4	4	26700	9500	17200	9890	98900000
1	4	2026-01-10	6	7	40270	15400	24870	12435	124350000
1	3	2026-01-07	3	3	12640	4700	7940	1517	15168000
1	4	2026-10-24	3	4	17820	6800	11020	5510	55100000
1	2	2026-07-28	5	5	22940	8800	14140	8131	81305000
1	2	2026-05-19	2	2	12200	4300	7900	4345	43450000
1	1	2026-03-05	6	3	14475	6400	8075	3230	32300000
1	2	2026-11-06	1	1	6800	2400	4400	2530	25300000
1	4	2026-09-19	4	4	22000	7800	14200	7100	71000000
1	1	2026-02-16	3	4	16680	5800	10880	4352	43520000
1	2	2025-12-16	3	5	33600	13400	20200	11110	111100000
1	3	2026-06-17	6	6	36450	13700	22750	4374	43740000
1	2	2026-09-22	4	2	5520	2400	3120	1795	17940000
1	3	2025-12-17	4	5	14800	4600	10200	1776	17760000
1	1	2026-08-03	4	5	17800	5900	11900	4760	47600000
1	2	2026-06-09	2	4	20000	6800	13200	7590	75900000
1	4	2026-05-30	2	2	14300	5200	9100	4550	45500000
1	1	2026-03-23	4	7	34840	12200	22640	9056	90560000
1	2	2026-03-10	5	5	18900	6300	12600	6930	69300000
1	1	2026-02-09	1	1	6480	2600	3880	1552	15520000
1	4	2026-01-17	5	5	41700	15800	25900	12950	129500000
1	1	2026-07-20	4	6	19600	6400	13200	5280	52800000
1	1	2026-05-11	1	1	3800	1200	2600	1040	10400000
1	2	2026-11-20	2	3	9000	2800	6200	3565	35650000
1	1	2026-05-07	4	6	18200	5600	12600	5040	50400000
1	4	2026-07-25	1	1	6800	2400	4400	2200	22000000
1	3	2025-12-31	3	2	4300	1100	3200	516	5160000
1	4	2026-04-11	5	6	29300	10500	18800	9400	94000000
1	2	2026-01-27	1	-1	-3800	-1200	-2600	-1430	-14300000
1	1	2026-01-08	4	4	14600	4600	10000	4000	40000000
1	1	2025-12-22	4	6	20540	7300	13240	5296	52960000
1	3	2026-02-04	2	2	14000	5000	9000	864	8640000
1	2	2026-02-24	4	5	24530	8900	15630	8597	85965000
1	2	2025-12-02	6	8	38200	14000	24200	13310	133100000
1	3	2026-09-23	6	8	33000	11100	21900	3960	39600000
1	3	2026-08-26	2	2	9800	3400	6400	1176	11760000
1	3	2026-08-19	2	4	10600	3200	7400	1272	12720000
1	2	2026-08-07	5	6	26360	9900	16460	9465	94645000
1	2	2026-01-23	2	2	13400	4800	8600	4730	47300000
1	1	2026-11-16	3	5	28000	9600	18400	8020	80200000
1	2	2026-01-09	4	6	20700	6800	13900	7645	76450000
1	1	2026-07-30	4	4	17240	6400	10840	4488	44880000
1	2	2026-04-07	6	7	23260	8000	15260	8393	83930000
1	2	2025-12-09	4	7	21400	6800	14600	8030	80300000
1	1	2026-08-27	6	4	20400	7000	13400	5580	55800000
1	1	2026-10-01	2	2	10400	3700	6700	2680	26800000
1	2	2026-02-06	5	6	23600	8200	15400	8470	84700000
1	4	2026-05-16	2	2	7220	2400	4820	2410	24100000
1	1	2026-09-03	3	3	21100	7600	13500	5620	56200000
1	1	2026-10-29	5	6	20300	7400	12900	5160	51600000
\.


--
-- Data for Name: clinicmonthtotal; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.clinicmonthtotal (bookid, clinicid, month, salecount, quantity, revenueminor, costminor, profitminor, commissionminor, commissionexact) FROM stdin;
1	4	2026-10-01	17	20	93300	33500	59800	29900	299000000
1	4	2026-05-01	14	12	65160	23400	41760	20880	208800000
1	1	2026-01-01	29	34	164200	56700	107500	42780	427800000
1	3	2026-02-01	14	15	69900	25400	44500	7572	75720000
1	4	2025-11-01	1	1	7200	2600	4600	2300	23000000
1	4	2026-01-01	22	23	146390	54400	91990	45995	459950000
1	3	2026-06-01	15	16	74650	26500	48150	8958	89580000
1	4	2026-11-01	13	14	55580	19100	36480	18240	182400000
1	4	2026-04-01	12	14	68165	24600	43565	21783	217825000
1	3	2026-11-01	8	11	46030	15600	30430	5524	55236000
1	1	2026-11-01	28	35	158550	56800	101750	42392	423920000
1	3	2026-08-01	12	15	61800	20800	41000	7416	74160000
1	2	2025-11-01	9	10	35740	13200	22540	11792	117920000
1	4	2026-03-01	11	11	48500	16500	32000	16000	160000000
1	1	2026-03-01	39	46	224795	81500	143295	59078	590780000
1	3	2025-11-01	4	7	39560	16600	22960	4747	47472000
1	1	2026-09-01	27	31	158245	56800	101445	41678	416780000
1	3	2026-05-01	11	12	67800	23900	43900	8136	81360000
1	1	2026-02-01	16	16	71260	25000	46260	18724	187240000
1	2	2026-10-01	28	32	136580	47400	89180	51282	512785000
1	1	2026-07-01	31	44	188480	69200	119280	48304	483040000
1	4	2026-08-01	18	18	84830	31000	53830	26915	269150000
1	1	2025-12-01	19	19	85360	29400	55960	23264	232640000
1	1	2025-11-01	6	7	27000	8900	18100	7240	72400000
1	2	2026-05-01	36	41	176700	60400	116300	63965	639650000
1	1	2026-05-01	26	29	115860	39500	76360	30984	309840000
1	2	2026-07-01	26	29	136940	48300	88640	50971	509680000
1	2	2026-03-01	17	20	99060	34500	64560	35508	355080000
1	1	2026-06-01	24	31	145000	50300	94700	38760	387600000
1	2	2026-04-01	28	30	134960	48000	86960	47828	478280000
1	4	2025-12-01	16	18	80820	28700	52120	26060	260600000
1	2	2026-01-01	33	36	162350	57500	104850	52663	526625000
1	2	2026-06-01	37	43	202150	71400	130750	75185	751812500
1	3	2026-07-01	16	20	99900	35200	64700	11988	119880000
1	2	2025-12-01	26	35	158900	57100	101800	55990	559900000
1	4	2026-06-01	13	16	69600	23300	46300	23150	231500000
1	3	2026-09-01	23	28	99875	33500	66375	11985	119850000
1	2	2026-08-01	29	30	133800	48200	85600	49221	492200000
1	3	2026-10-01	13	16	74340	26500	47840	8921	89208000
1	2	2026-11-01	11	14	59750	21000	38750	22282	222812500
1	2	2026-02-01	36	41	183960	66000	117960	64879	648780000
1	4	2026-07-01	14	14	48480	15800	32680	16340	163400000
1	4	2026-02-01	15	13	64290	22100	42190	20195	201950000
1	2	2026-09-01	22	24	113820	41700	72120	41474	414690000
1	3	2026-01-01	15	17	79730	28400	51330	9568	95676000
1	1	2026-08-01	35	38	186145	68100	118045	46676	466760000
1	1	2026-04-01	31	36	171330	61700	109630	44512	445120000
1	3	2026-03-01	16	18	92970	33900	59070	11156	111564000
1	1	2026-10-01	29	30	115680	42700	72980	29192	291920000
1	3	2025-12-01	18	22	93300	31600	61700	11196	111960000
1	4	2026-09-01	12	13	57465	20300	37165	18583	185825000
1	3	2026-04-01	18	20	92700	32700	60000	11124	111240000
\.


--
-- Data for Name: closedperiod; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.closedperiod (bookid, clinicid, periodstart, periodend) FROM stdin;
1	1	2025-11-01	2025-11-30
1	1	2025-12-01	2025-12-31
1	1	2026-01-01	2026-01-31
1	1	2026-02-01	2026-02-28
1	1	2026-03-01	2026-03-31
1	1	2026-04-01	2026-04-30
1	2	2025-11-16	2025-11-30
1	2	2025-12-01	2025-12-15
1	2	2025-12-16	2025-12-31
1	2	2026-01-01	2026-01-15
1	2	2026-01-16	2026-01-31
1	2	2026-02-01	2026-02-15
1	2	2026-02-16	2026-02-28
1	2	2026-03-01	2026-03-15
1	2	2026-03-16	2026-03-31
1	2	2026-04-01	2026-04-15
1	2	2026-04-16	2026-04-30
1	2	2026-05-01	2026-05-15
1	2	2026-05-16	2026-05-31
1	2	2026-06-01	2026-06-15
1	2	2026-06-16	2026-06-30
1	2	2026-07-01	2026-07-15
1	2	2026-07-16	2026-07-31
1	2	2026-08-01	2026-08-15
1	3	2025-11-21	2025-12-04
1	3	2025-12-05	2025-12-18
1	3	2025-12-19	2026-01-01
1	3	2026-01-02	2026-01-15
1	3	2026-01-16	2026-01-29
1	3	2026-01-30	2026-02-12
1	3	2026-02-13	2026-02-26
1	3	2026-02-27	2026-03-12
1	3	2026-03-13	2026-03-26
1	3	2026-03-27	2026-04-09
1	3	2026-04-10	2026-04-23
1	3	2026-04-24	2026-05-07
1	3	2026-05-08	2026-05-21
1	3	2026-06-05	2026-06-18
1	3	2026-06-19	2026-07-02
1	3	2026-07-03	2026-07-16
1	3	2026-07-17	2026-07-30
1	3	2026-07-31	2026-08-13
1	3	2026-08-14	2026-08-27
1	4	2025-11-24	2025-11-30
1	4	2025-12-01	2025-12-07
1	4	2025-12-08	2025-12-14
1	4	2025-12-15	2025-12-21
1	4	2025-12-22	2025-12-28
1	4	2025-12-29	2026-01-04
1	4	2026-01-05	2026-01-11
1	4	2026-01-12	2026-01-18
1	4	2026-01-26	2026-02-01
1	4	2026-02-02	2026-02-08
1	4	2026-02-09	2026-02-15
1	4	2026-02-16	2026-02-22
1	4	2026-02-23	2026-03-01
1	4	2026-03-09	2026-03-15
1	4	2026-03-16	2026-03-22
1	4	2026-03-23	2026-03-29
1	4	2026-03-30	2026-04-05
1	4	2026-04-06	2026-04-12
1	4	2026-04-13	2026-04-19
1	4	2026-04-27	2026-05-03
1	4	2026-05-04	2026-05-10
1	4	2026-05-11	2026-05-17
1	4	2026-05-18	2026-05-24
1	4	2026-05-25	2026-05-31
1	4	2026-06-01	2026-06-07
1	4	2026-06-08	2026-06-14
1	4	2026-06-15	2026-06-21
1	4	2026-06-22	2026-06-28
1	4	2026-06-29	2026-07-05
1	4	2026-07-06	2026-07-12
1	4	2026-07-13	2026-07-19
1	4	2026-07-20	2026-07-26
1	4	2026-07-27	2026-08-02
1	4	2026-08-03	2026-08-09
1	4	2026-08-10	2026-08-16
1	4	2026-08-17	2026-08-23
1	4	2026-08-24	2026-08-30
1	4	2026-08-31	2026-09-06
1	4	2026-09-07	2026-09-13
1	4	2026-09-14	2026-09-20
1	4	2026-09-21	2026-09-27
1	4	2026-09-28	2026-10-04
\.


--
-- Data for Name: commissionmigration; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.commissionmigration (name, appliedat) FROM stdin;
v1: books, accounts and members	2026-11-23 18:51:57.34325+00
v1: clinics, products and terms	2026-11-23 18:51:57.34325+00
v1: sales, payouts and closed periods	2026-11-23 18:51:57.34325+00
v1: summary tables	2026-11-23 18:51:57.34325+00
v2: invitation roles, one book per account	2026-11-23 18:51:57.34325+00
v3: audit log	2026-11-23 18:51:57.34325+00
v4: the book's locale	2026-11-23 18:51:57.34325+00
\.


--
-- Data for Name: invitation; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.invitation (tokendigest, bookid, invitedby, expiresat, usedat, role, accountid) FROM stdin;
\.


--
-- Data for Name: member; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.member (bookid, accountid, role) FROM stdin;
\.


--
-- Data for Name: payout; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.payout (id, bookid, clinicid, periodstart, periodend, amountminor, receivedon, reference) FROM stdin;
1	1	1	2025-11-01	2025-11-30	7240	2025-12-06	Transfer 1000
2	1	1	2025-12-01	2025-12-31	23264	2026-01-03	Transfer 1001
3	1	1	2026-01-01	2026-01-31	42780	2026-02-09	Transfer 1002
4	1	1	2026-02-01	2026-02-28	18724	2026-03-03	Transfer 1003
5	1	1	2026-03-01	2026-03-31	59078	2026-04-10	Transfer 1004
6	1	1	2026-04-01	2026-04-30	44512	2026-05-06	Transfer 1005
7	1	1	2026-05-01	2026-05-31	30984	2026-06-08	Transfer 1006
8	1	1	2026-06-01	2026-06-30	38760	2026-07-08	Transfer 1007
9	1	1	2026-07-01	2026-07-31	48304	2026-08-09	Transfer 1008
10	1	1	2026-08-01	2026-08-31	46676	2026-09-07	Transfer 1009
11	1	1	2026-09-01	2026-09-30	41678	2026-10-05	Transfer 1010
12	1	2	2025-11-16	2025-11-30	11792	2025-12-07	Transfer 1000
13	1	2	2025-12-01	2025-12-15	22935	2025-12-18	Transfer 1001
14	1	2	2025-12-16	2025-12-31	33055	2026-01-08	Transfer 1002
15	1	2	2026-01-01	2026-01-15	30162	2026-01-20	Transfer 1003
16	1	2	2026-01-16	2026-01-31	22501	2026-02-07	Transfer 1004
17	1	2	2026-02-01	2026-02-15	35107	2026-02-23	Transfer 1005
18	1	2	2026-02-16	2026-02-28	29772	2026-03-06	Transfer 1006
19	1	2	2026-03-01	2026-03-15	16808	2026-03-21	Transfer 1007
20	1	2	2026-03-16	2026-03-31	18700	2026-04-08	Transfer 1008
21	1	2	2026-04-01	2026-04-15	19118	2026-04-24	Transfer 1009
22	1	2	2026-04-16	2026-04-30	28710	2026-05-08	Transfer 1010
23	1	2	2026-05-01	2026-05-15	38995	2026-05-22	Transfer 1011
24	1	2	2026-05-16	2026-05-31	24970	2026-06-09	Transfer 1012
25	1	2	2026-06-01	2026-06-15	35139	2026-06-22	Transfer 1013
26	1	2	2026-06-16	2026-06-30	40046	2026-07-10	Transfer 1014
27	1	2	2026-07-01	2026-07-15	22656	2026-07-25	Transfer 1015
28	1	2	2026-07-16	2026-07-31	28315	2026-08-05	Transfer 1016
29	1	2	2026-08-01	2026-08-15	22273	2026-08-22	Transfer 1017
30	1	2	2026-08-16	2026-08-31	26948	2026-09-07	Transfer 1018
31	1	2	2026-09-01	2026-09-15	23519	2026-09-20	Transfer 1019
32	1	2	2026-09-16	2026-09-30	17955	2026-10-06	Transfer 1020
33	1	2	2026-10-01	2026-10-15	22294	2026-10-19	Transfer 1021
34	1	2	2026-10-16	2026-10-31	26488	2026-11-07	Transfer 1022
35	1	2	2026-11-01	2026-11-15	15727	2026-11-23	Transfer 1023
36	1	3	2025-11-21	2025-12-04	8323	2025-12-07	Transfer 1000
37	1	3	2025-12-05	2025-12-18	4920	2025-12-22	Transfer 1001
38	1	3	2025-12-19	2026-01-01	2700	2026-01-06	Transfer 1002
39	1	3	2026-01-02	2026-01-15	3257	2026-01-19	Transfer 1003
40	1	3	2026-01-16	2026-01-29	6311	2026-02-03	Transfer 1004
41	1	3	2026-01-30	2026-02-12	3048	2026-02-17	Transfer 1005
42	1	3	2026-02-13	2026-02-26	4524	2026-03-03	Transfer 1006
43	1	3	2026-02-27	2026-03-12	4236	2026-03-16	Transfer 1007
44	1	3	2026-03-13	2026-03-26	6920	2026-04-05	Transfer 1008
45	1	3	2026-03-27	2026-04-09	6240	2026-04-12	Transfer 1009
46	1	3	2026-04-10	2026-04-23	2832	2026-05-02	Transfer 1010
47	1	3	2026-04-24	2026-05-07	4452	2026-05-11	Transfer 1011
48	1	3	2026-05-08	2026-05-21	5736	2026-05-31	Transfer 1012
49	1	3	2026-06-05	2026-06-18	6390	2026-06-28	Transfer 1013
50	1	3	2026-06-19	2026-07-02	6125	2026-07-07	Transfer 1014
51	1	3	2026-07-03	2026-07-16	3924	2026-07-19	Transfer 1015
52	1	3	2026-07-17	2026-07-30	4507	2026-08-04	Transfer 1016
53	1	3	2026-07-31	2026-08-13	4968	2026-08-19	Transfer 1017
54	1	3	2026-08-14	2026-08-27	2448	2026-09-05	Transfer 1018
55	1	3	2026-08-28	2026-09-10	3390	2026-09-18	Transfer 1019
56	1	3	2026-09-11	2026-09-24	6375	2026-09-28	Transfer 1020
57	1	3	2026-09-25	2026-10-08	5405	2026-10-12	Transfer 1021
58	1	3	2026-10-09	2026-10-22	3240	2026-10-25	Transfer 1022
59	1	3	2026-10-23	2026-11-05	7248	2026-11-09	Transfer 1023
60	1	3	2026-11-06	2026-11-19	772	2026-11-22	Transfer 1024
61	1	4	2025-11-24	2025-11-30	2300	2025-12-07	Transfer 1000
62	1	4	2025-12-01	2025-12-07	1840	2025-12-13	Transfer 1001
63	1	4	2025-12-08	2025-12-14	9250	2025-12-17	Transfer 1002
64	1	4	2025-12-15	2025-12-21	2760	2025-12-28	Transfer 1003
65	1	4	2025-12-22	2025-12-28	12210	2026-01-01	Transfer 1004
66	1	4	2025-12-29	2026-01-04	9560	2026-01-13	Transfer 1005
67	1	4	2026-01-05	2026-01-11	12435	2026-01-14	Transfer 1006
68	1	4	2026-01-12	2026-01-18	12950	2026-01-28	Transfer 1007
69	1	4	2026-01-26	2026-02-01	11050	2026-02-06	Transfer 1008
70	1	4	2026-02-02	2026-02-08	2895	2026-02-17	Transfer 1009
71	1	4	2026-02-09	2026-02-15	8400	2026-02-25	Transfer 1010
72	1	4	2026-02-16	2026-02-22	-1300	2026-02-25	Transfer 1011
73	1	4	2026-02-23	2026-03-01	10200	2026-03-06	Transfer 1012
74	1	4	2026-03-09	2026-03-15	12200	2026-03-19	Transfer 1013
75	1	4	2026-03-16	2026-03-22	3250	2026-03-29	Transfer 1014
76	1	4	2026-03-23	2026-03-29	550	2026-04-04	Transfer 1015
77	1	4	2026-03-30	2026-04-05	7583	2026-04-15	Transfer 1016
78	1	4	2026-04-06	2026-04-12	9400	2026-04-16	Transfer 1017
79	1	4	2026-04-13	2026-04-19	4800	2026-04-23	Transfer 1018
80	1	4	2026-04-27	2026-05-03	3910	2026-05-07	Transfer 1019
81	1	4	2026-05-04	2026-05-10	5960	2026-05-16	Transfer 1020
82	1	4	2026-05-11	2026-05-17	2410	2026-05-25	Transfer 1021
83	1	4	2026-05-18	2026-05-24	4050	2026-05-29	Transfer 1022
84	1	4	2026-05-25	2026-05-31	4550	2026-06-07	Transfer 1023
85	1	4	2026-06-01	2026-06-07	7900	2026-06-15	Transfer 1024
86	1	4	2026-06-08	2026-06-14	5000	2026-06-19	Transfer 1025
87	1	4	2026-06-15	2026-06-21	550	2026-07-01	Transfer 1026
88	1	4	2026-06-22	2026-06-28	9700	2026-07-05	Transfer 1027
89	1	4	2026-06-29	2026-07-05	2650	2026-07-13	Transfer 1028
90	1	4	2026-07-06	2026-07-12	4990	2026-07-18	Transfer 1029
91	1	4	2026-07-13	2026-07-19	6500	2026-07-22	Transfer 1030
92	1	4	2026-07-20	2026-07-26	2200	2026-07-30	Transfer 1031
93	1	4	2026-07-27	2026-08-02	8365	2026-08-06	Transfer 1032
94	1	4	2026-08-03	2026-08-09	5900	2026-08-15	Transfer 1033
95	1	4	2026-08-10	2026-08-16	6900	2026-08-20	Transfer 1034
96	1	4	2026-08-17	2026-08-23	900	2026-09-01	Transfer 1035
97	1	4	2026-08-24	2026-08-30	4850	2026-09-05	Transfer 1036
98	1	4	2026-08-31	2026-09-06	4883	2026-09-14	Transfer 1037
99	1	4	2026-09-07	2026-09-13	900	2026-09-23	Transfer 1038
100	1	4	2026-09-14	2026-09-20	7100	2026-09-26	Transfer 1039
101	1	4	2026-09-21	2026-09-27	5700	2026-10-04	Transfer 1040
102	1	4	2026-09-28	2026-10-04	8000	2026-10-12	Transfer 1041
103	1	4	2026-10-12	2026-10-18	8940	2026-10-25	Transfer 1042
104	1	4	2026-10-19	2026-10-25	5510	2026-11-02	Transfer 1043
105	1	4	2026-10-26	2026-11-01	7450	2026-11-06	Transfer 1044
106	1	4	2026-11-02	2026-11-08	6250	2026-11-17	Transfer 1045
107	1	4	2026-11-09	2026-11-15	10000	2026-11-23	Transfer 1046
108	1	4	2026-11-16	2026-11-22	2990	2026-11-23	Transfer 1047
\.


--
-- Data for Name: product; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.product (id, bookid, name, sku, unitpriceminor, unitcostminor, isarchived) FROM stdin;
1	1	Hydrating Serum 30ml	SER-30	6800	2400	f
2	1	Vitamin C Serum 15ml	VIT-15	5400	1900	f
3	1	Daily SPF 50	SPF-50	3800	1200	f
4	1	Retinol Night Cream	RET-50	7200	2600	f
5	1	Gentle Cleanser 200ml	CLN-200	2600	800	f
6	1	Eye Contour Gel	EYE-15	4500	1500	f
7	1	Peptide Moisturiser	PEP-50	8900	3300	f
8	1	Exfoliating Toner	TON-150	3200	1000	f
9	1	Lip Repair Balm	LIP-10	1500	400	f
10	1	Hyaluronic Mask (5)	MSK-5	4200	1600	f
11	1	Body Lotion 400ml	BOD-400	3500	1300	f
12	1	Travel Kit	KIT-T	9500	4200	f
\.


--
-- Data for Name: productmonthtotal; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.productmonthtotal (bookid, productid, month, salecount, quantity, revenueminor, costminor, profitminor, commissionminor, commissionexact) FROM stdin;
1	8	2026-03-01	5	8	25600	8000	17600	8140	81400000
1	9	2026-03-01	7	9	13500	3600	9900	4030	40300000
1	9	2026-09-01	12	13	19350	5200	14150	4681	46795000
1	6	2026-11-01	4	5	21600	7500	14100	5145	51450000
1	4	2026-10-01	3	4	28800	10400	18400	9545	95450000
1	4	2026-05-01	5	6	43200	15600	27600	11158	111580000
1	6	2026-03-01	4	6	27000	9000	18000	8700	87000000
1	1	2026-01-01	8	9	61200	21600	39600	19580	195800000
1	7	2025-12-01	1	-1	-8900	-3300	-5600	-1068	-10680000
1	5	2026-08-01	15	18	46800	14400	32400	14346	143460000
1	9	2026-07-01	11	14	20700	5600	15100	6912	69100000
1	8	2026-07-01	5	8	25600	8000	17600	7920	79200000
1	3	2026-02-01	14	12	44650	14400	30250	13844	138435000
1	4	2025-11-01	2	3	18720	7800	10920	5776	57760000
1	12	2026-11-01	2	3	27550	12600	14950	6741	67412500
1	4	2026-01-01	9	11	78120	28600	49520	20278	202780000
1	9	2025-11-01	5	5	7500	2000	5500	2255	22550000
1	7	2026-02-01	4	5	41830	16500	25330	13652	136515000
1	9	2026-11-01	11	16	24000	6400	17600	7346	73450000
1	8	2026-01-01	11	13	41600	13000	28600	10668	106680000
1	3	2026-06-01	16	18	66500	21600	44900	20495	204950000
1	11	2026-11-01	2	2	7000	2600	4400	1760	17600000
1	11	2026-03-01	7	6	21000	7800	13200	4230	42300000
1	4	2026-04-01	10	12	84240	31200	53040	23814	238140000
1	8	2026-08-01	8	8	24320	8000	16320	8616	86160000
1	3	2026-11-01	10	13	48830	15600	33230	16378	163776000
1	1	2026-11-01	11	13	86020	31200	54820	23280	232800000
1	9	2026-10-01	13	13	19500	5200	14300	6519	65175000
1	8	2026-05-01	6	6	18560	6000	12560	5684	56840000
1	5	2025-12-01	13	16	41600	12800	28800	10644	106440000
1	3	2026-08-01	14	15	57000	18000	39000	15994	159940000
1	10	2026-11-01	1	1	4200	1600	2600	1300	13000000
1	8	2026-06-01	10	12	38400	12000	26400	12814	128140000
1	12	2026-01-01	3	3	28500	12600	15900	8215	82150000
1	2	2025-11-01	3	4	19440	7600	11840	3837	38368000
1	8	2026-11-01	3	4	12800	4000	8800	2528	25280000
1	4	2026-03-01	11	13	89280	33800	55480	19954	199540000
1	11	2026-09-01	4	5	17500	6500	11000	6160	61600000
1	10	2026-04-01	4	5	21000	8000	13000	5720	57200000
1	12	2026-03-01	1	1	8075	4200	3875	1550	15500000
1	1	2026-03-01	16	20	136000	48000	88000	41232	412320000
1	3	2025-11-01	3	4	14820	4800	10020	4731	47310000
1	1	2026-09-01	8	11	73440	26400	47040	23080	230800000
1	10	2025-11-01	1	1	4200	1600	2600	1430	14300000
1	3	2026-05-01	21	25	94240	30000	64240	28612	286120000
1	12	2026-08-01	5	5	45600	21000	24600	12226	122250000
1	7	2026-05-01	8	8	71200	26400	44800	18936	189360000
1	1	2026-02-01	5	6	40800	14400	26400	11220	112200000
1	9	2025-12-01	5	7	10500	2800	7700	4180	41800000
1	2	2026-10-01	10	12	63720	22800	40920	14776	147750000
1	12	2026-07-01	2	4	38000	16800	21200	8480	84800000
1	1	2026-07-01	14	16	106080	38400	67680	28206	282060000
1	7	2026-06-01	4	5	43610	16500	27110	10901	109012000
1	7	2026-03-01	5	8	68530	26400	42130	15203	152036000
1	5	2026-09-01	9	11	28600	8800	19800	6690	66900000
1	8	2025-12-01	7	9	28480	9000	19480	7702	77020000
1	8	2026-10-01	7	10	30720	10000	20720	8340	83400000
1	4	2026-08-01	4	4	28800	10400	18400	6844	68440000
1	6	2026-01-01	8	13	58500	19500	39000	18180	181800000
1	12	2025-12-01	4	5	47500	21000	26500	14310	143100000
1	11	2026-07-01	2	3	10500	3900	6600	1720	17200000
1	1	2025-12-01	11	12	81600	28800	52800	21808	218080000
1	1	2025-11-01	2	2	13600	4800	8800	3236	32360000
1	7	2026-07-01	4	5	44500	16500	28000	15120	151200000
1	2	2026-05-01	6	4	21600	7600	14000	8050	80500000
1	6	2026-02-01	2	4	18000	6000	12000	6300	63000000
1	5	2026-03-01	13	12	29900	9600	20300	8211	82108000
1	10	2025-12-01	2	4	16800	6400	10400	3608	36080000
1	1	2026-05-01	11	11	74120	26400	47720	20148	201480000
1	2	2026-07-01	6	6	32400	11400	21000	8961	89605000
1	10	2026-01-01	6	6	24570	9600	14970	6153	61530000
1	11	2026-06-01	6	7	24150	9100	15050	6579	65787500
1	8	2026-04-01	8	10	30720	10000	20720	7404	74040000
1	10	2026-09-01	3	3	12600	4800	7800	2048	20480000
1	6	2026-09-01	6	7	29475	10500	18975	7652	76515000
1	2	2026-03-01	2	0	0	0	0	-1102	-11020000
1	1	2026-06-01	18	21	141440	50400	91040	39163	391628000
1	2	2026-04-01	10	11	58050	20900	37150	13469	134690000
1	4	2025-12-01	8	10	72000	26000	46000	17946	179460000
1	10	2026-07-01	6	6	23520	9600	13920	6218	62180000
1	6	2025-12-01	1	1	4500	1500	3000	1500	15000000
1	2	2026-01-01	12	15	80190	28500	51690	18070	180698000
1	2	2026-06-01	7	10	54000	19000	35000	18377	183750000
1	5	2026-07-01	14	19	48100	15200	32900	14525	145248000
1	10	2026-05-01	4	2	8400	3200	5200	2730	27300000
1	8	2025-11-01	1	2	5120	2000	3120	614	6144000
1	12	2026-09-01	4	4	38000	16800	21200	10336	103350000
1	9	2026-02-01	12	12	17400	4800	12600	5325	53250000
1	10	2026-08-01	3	3	12600	4800	7800	2844	28440000
1	6	2026-05-01	4	5	22500	7500	15000	7350	73500000
1	5	2026-10-01	13	14	35620	11200	24420	10610	106095000
1	11	2026-10-01	3	4	14000	5200	8800	3885	38850000
1	7	2026-04-01	4	4	34265	13200	21065	8801	88005000
1	7	2026-10-01	6	7	56960	23100	33860	13041	130405000
1	3	2026-07-01	12	12	44840	14400	30440	11660	116600000
1	2	2025-12-01	6	6	32400	11400	21000	9398	93980000
1	9	2026-06-01	8	8	11850	3200	8650	3409	34087500
1	5	2026-04-01	14	15	38740	12000	26740	12409	124090000
1	11	2026-02-01	2	2	7000	2600	4400	2090	20900000
1	12	2026-02-01	3	3	28500	12600	15900	5195	51950000
1	8	2026-09-01	6	8	25600	8000	17600	6542	65420000
1	5	2026-05-01	6	9	23400	7200	16200	7962	79620000
1	9	2026-05-01	9	10	15000	4000	11000	4910	49100000
1	10	2026-10-01	6	7	27720	11200	16520	8038	80380000
1	6	2025-11-01	1	1	4500	1500	3000	1200	12000000
1	4	2026-06-01	3	6	43200	15600	27600	12650	126500000
1	3	2026-09-01	10	9	34200	10800	23400	7284	72840000
1	2	2026-08-01	6	8	43200	15200	28000	12234	122335000
1	12	2025-11-01	1	2	19000	8400	10600	2280	22800000
1	12	2026-06-01	2	2	19000	8400	10600	6096	60950000
1	3	2026-10-01	9	10	37240	12000	25240	10442	104418000
1	5	2026-06-01	12	14	35750	11200	24550	11144	111437500
1	11	2026-01-01	4	4	13650	5200	8450	3580	35800000
1	10	2026-02-01	4	2	8400	3200	5200	2600	26000000
1	9	2026-01-01	7	9	13350	3600	9750	4630	46300000
1	2	2026-11-01	7	9	48600	17100	31500	11446	114460000
1	11	2026-08-01	6	7	23975	9100	14875	7398	73981250
1	11	2025-12-01	3	4	14000	5200	8800	3850	38500000
1	6	2026-04-01	4	5	22500	7500	15000	7200	72000000
1	2	2026-02-01	10	12	63990	22800	41190	21820	218200000
1	4	2026-07-01	5	7	48960	18200	30760	9608	96082000
1	7	2026-08-01	9	8	67195	26400	40795	18897	188973750
1	4	2026-02-01	10	10	69840	26000	43840	16340	163400000
1	6	2026-10-01	5	6	26100	9000	17100	9450	94500000
1	2	2026-09-01	14	17	90720	32300	58420	25213	252105000
1	10	2026-03-01	3	4	16800	6400	10400	4550	45500000
1	3	2026-01-01	11	8	28880	9600	19280	7423	74228000
1	12	2026-04-01	4	4	38000	16800	21200	8295	82950000
1	9	2026-08-01	6	6	9000	2400	6600	2120	21200000
1	9	2026-04-01	8	10	14400	4000	10400	4079	40790000
1	1	2026-08-01	10	11	72760	26400	46360	17654	176540000
1	7	2026-09-01	3	2	17800	6600	11200	3308	33080000
1	6	2026-06-01	3	3	13500	4500	9000	4425	44250000
1	6	2026-07-01	6	7	30600	10500	20100	8273	82725000
1	12	2026-05-01	1	1	9500	4200	5300	2120	21200000
1	7	2026-11-01	3	3	26700	9900	16800	8260	82600000
1	5	2026-11-01	6	5	12610	4000	8610	4254	42540000
1	12	2026-10-01	2	2	19000	8400	10600	3260	32600000
1	6	2026-08-01	8	8	35325	12000	23325	11055	110550000
1	1	2026-04-01	12	12	80240	28800	51440	21940	219400000
1	3	2026-03-01	9	8	29640	9600	20040	7044	70440000
1	5	2026-02-01	8	9	23400	7200	16200	5616	56160000
1	7	2026-01-01	12	12	105910	39600	66310	28019	280185000
1	8	2026-02-01	7	8	25600	8000	17600	7368	73680000
1	5	2026-01-01	8	7	18200	5600	12600	6210	62100000
1	1	2026-10-01	10	9	60520	21600	38920	21389	213890000
1	3	2025-12-01	18	21	77900	25200	52700	22632	226320000
1	11	2026-04-01	2	2	7000	2600	4400	1520	15200000
1	5	2025-11-01	1	1	2600	800	1800	720	7200000
1	4	2026-09-01	5	6	42120	15600	26520	10726	107260000
1	3	2026-04-01	9	10	38000	12000	26000	10596	105960000
1	11	2026-05-01	6	7	23800	9100	14700	6305	63050000
\.


--
-- Data for Name: productyeartotal; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.productyeartotal (bookid, year, productid, salecount, quantity, revenueminor, costminor, profitminor, commissionminor, commissionexact) FROM stdin;
1	2025	8	8	11	33600	11000	22600	8316	83164000
1	2026	2	90	104	556470	197600	358870	151314	1513073000
1	2026	1	123	139	932620	333600	599020	266892	2668918000
1	2026	4	65	79	556560	205400	351160	140917	1409172000
1	2025	1	13	14	95200	33600	61600	25044	250440000
1	2025	6	2	2	9000	3000	6000	2700	27000000
1	2025	2	9	10	51840	19000	32840	13235	132348000
1	2025	7	1	-1	-8900	-3300	-5600	-1068	-10680000
1	2026	7	62	67	578500	221100	357400	154138	1541371750
1	2026	6	54	69	305100	103500	201600	93730	937290000
1	2026	3	135	140	524020	168000	356020	149772	1497707000
1	2025	11	3	4	14000	5200	8800	3850	38500000
1	2026	10	40	39	159810	62400	97410	42201	422010000
1	2026	12	29	32	299725	134400	165325	72514	725112500
1	2026	8	76	95	299520	95000	204520	86024	860240000
1	2026	9	104	120	178050	48000	130050	53961	539547500
1	2025	5	14	17	44200	13600	30600	11364	113640000
1	2025	9	10	12	18000	4800	13200	6435	64350000
1	2025	10	3	5	21000	8000	13000	5038	50380000
1	2025	4	10	13	90720	33800	56920	23722	237220000
1	2026	5	118	133	341120	106400	234720	101977	1019758500
1	2025	3	21	25	92720	30000	62720	27363	273630000
1	2026	11	44	49	169575	63700	105875	45227	452268750
1	2025	12	5	7	66500	29400	37100	16590	165900000
\.


--
-- Data for Name: sale; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.sale (id, bookid, clinicid, productid, date, quantity, unitpriceminor, unitcostminor, discountminor, termsid, sharebasispoints, basis, revenueminor, costminor, profitminor, commissionexact, commissionminor, note, isvoided, idempotencykey) FROM stdin;
1	1	2	4	2025-11-25	2	7200	2600	2880	2	5500	profit	11520	5200	6320	34760000	3476	\N	f	\N
2	1	2	3	2025-11-25	1	3800	1200	380	2	5500	profit	3420	1200	2220	12210000	1221	\N	f	\N
3	1	2	3	2025-11-25	1	3800	1200	0	2	5500	profit	3800	1200	2600	14300000	1430	\N	f	\N
4	1	2	9	2025-11-25	1	1500	400	0	\N	\N	\N	1500	400	1100	0	0	sample	f	\N
5	1	2	9	2025-11-25	1	1500	400	0	2	5500	profit	1500	400	1100	6050000	605	\N	f	\N
6	1	3	1	2025-11-26	1	6800	2400	0	3	1200	revenue	6800	2400	4400	8160000	816	\N	f	\N
7	1	3	2	2025-11-26	2	5400	1900	2160	3	1200	revenue	8640	3800	4840	10368000	1037	\N	f	\N
8	1	3	8	2025-11-26	2	3200	1000	1280	3	1200	revenue	5120	2000	3120	6144000	614	\N	f	\N
9	1	3	12	2025-11-26	2	9500	4200	0	3	1200	revenue	19000	8400	10600	22800000	2280	\N	f	\N
10	1	1	9	2025-11-27	1	1500	400	0	1	4000	profit	1500	400	1100	4400000	440	\N	f	\N
11	1	1	2	2025-11-27	1	5400	1900	0	1	4000	profit	5400	1900	3500	14000000	1400	\N	f	\N
12	1	1	2	2025-11-27	1	5400	1900	0	1	4000	profit	5400	1900	3500	14000000	1400	\N	f	\N
13	1	1	3	2025-11-27	2	3800	1200	0	1	4000	profit	7600	2400	5200	20800000	2080	\N	f	\N
14	1	1	6	2025-11-27	1	4500	1500	0	1	4000	profit	4500	1500	3000	12000000	1200	\N	f	\N
15	1	1	5	2025-11-27	1	2600	800	0	1	4000	profit	2600	800	1800	7200000	720	\N	f	\N
16	1	2	9	2025-11-28	1	1500	400	0	2	5500	profit	1500	400	1100	6050000	605	\N	f	\N
17	1	2	9	2025-11-28	1	1500	400	0	2	5500	profit	1500	400	1100	6050000	605	\N	f	\N
18	1	2	10	2025-11-28	1	4200	1600	0	2	5500	profit	4200	1600	2600	14300000	1430	\N	f	\N
19	1	2	1	2025-11-28	1	6800	2400	0	2	5500	profit	6800	2400	4400	24200000	2420	\N	f	\N
20	1	4	4	2025-11-29	1	7200	2600	0	4	5000	profit	7200	2600	4600	23000000	2300	\N	f	\N
21	1	1	2	2025-12-01	1	5400	1900	0	1	4000	profit	5400	1900	3500	14000000	1400	\N	f	\N
22	1	2	9	2025-12-02	1	1500	400	0	2	5500	profit	1500	400	1100	6050000	605	\N	f	\N
23	1	2	9	2025-12-02	2	1500	400	0	2	5500	profit	3000	800	2200	12100000	1210	\N	f	\N
24	1	2	4	2025-12-02	2	7200	2600	0	2	5500	profit	14400	5200	9200	50600000	5060	\N	f	\N
25	1	2	12	2025-12-02	1	9500	4200	0	2	5500	profit	9500	4200	5300	29150000	2915	\N	f	\N
26	1	2	5	2025-12-02	1	2600	800	0	2	5500	profit	2600	800	1800	9900000	990	\N	f	\N
27	1	2	4	2025-12-02	1	7200	2600	0	2	5500	profit	7200	2600	4600	25300000	2530	\N	f	\N
28	1	3	5	2025-12-03	1	2600	800	0	3	1200	revenue	2600	800	1800	3120000	312	\N	f	\N
29	1	3	3	2025-12-03	2	3800	1200	0	3	1200	revenue	7600	2400	5200	9120000	912	\N	f	\N
30	1	3	5	2025-12-03	1	2600	800	0	3	1200	revenue	2600	800	1800	3120000	312	\N	f	\N
31	1	3	5	2025-12-03	1	2600	800	0	3	1200	revenue	2600	800	1800	3120000	312	\N	f	\N
32	1	3	4	2025-12-03	2	7200	2600	0	3	1200	revenue	14400	5200	9200	17280000	1728	\N	f	\N
33	1	1	4	2025-12-04	1	7200	2600	0	1	4000	profit	7200	2600	4600	18400000	1840	\N	f	\N
34	1	1	1	2025-12-04	1	6800	2400	0	5	4500	profit	6800	2400	4400	19800000	1980	\N	f	\N
35	1	1	1	2025-12-04	1	6800	2400	0	5	4500	profit	6800	2400	4400	19800000	1980	\N	f	\N
36	1	1	3	2025-12-04	1	3800	1200	0	1	4000	profit	3800	1200	2600	10400000	1040	\N	f	\N
37	1	1	2	2025-12-04	1	5400	1900	0	1	4000	profit	5400	1900	3500	14000000	1400	\N	f	\N
38	1	1	3	2025-12-04	1	3800	1200	0	1	4000	profit	3800	1200	2600	10400000	1040	\N	f	\N
39	1	2	5	2025-12-05	1	2600	800	0	2	5500	profit	2600	800	1800	9900000	990	\N	f	\N
40	1	2	9	2025-12-05	1	1500	400	0	2	5500	profit	1500	400	1100	6050000	605	\N	f	\N
41	1	4	8	2025-12-06	1	3200	1000	320	4	5000	profit	2880	1000	1880	9400000	940	\N	f	\N
42	1	4	5	2025-12-06	1	2600	800	0	4	5000	profit	2600	800	1800	9000000	900	\N	f	\N
43	1	2	5	2025-12-09	2	2600	800	0	2	5500	profit	5200	1600	3600	19800000	1980	\N	f	\N
44	1	2	8	2025-12-09	2	3200	1000	0	2	5500	profit	6400	2000	4400	24200000	2420	\N	f	\N
45	1	2	9	2025-12-09	2	1500	400	0	2	5500	profit	3000	800	2200	12100000	1210	\N	f	\N
46	1	2	1	2025-12-09	1	6800	2400	0	2	5500	profit	6800	2400	4400	24200000	2420	\N	f	\N
47	1	3	1	2025-12-10	2	6800	2400	0	3	1200	revenue	13600	4800	8800	16320000	1632	\N	f	\N
48	1	3	4	2025-12-10	1	7200	2600	0	3	1200	revenue	7200	2600	4600	8640000	864	\N	f	\N
49	1	3	2	2025-12-10	1	5400	1900	0	3	1200	revenue	5400	1900	3500	6480000	648	\N	f	\N
50	1	4	5	2025-12-13	1	2600	800	0	4	5000	profit	2600	800	1800	9000000	900	\N	f	\N
51	1	4	12	2025-12-13	1	9500	4200	0	4	5000	profit	9500	4200	5300	26500000	2650	\N	f	\N
52	1	4	1	2025-12-13	1	6800	2400	0	4	5000	profit	6800	2400	4400	22000000	2200	\N	f	\N
53	1	4	1	2025-12-13	1	6800	2400	0	4	5000	profit	6800	2400	4400	22000000	2200	\N	f	\N
54	1	4	3	2025-12-13	1	3800	1200	0	4	5000	profit	3800	1200	2600	13000000	1300	\N	f	\N
55	1	1	1	2025-12-15	1	6800	2400	0	5	4500	profit	6800	2400	4400	19800000	1980	\N	f	\N
56	1	2	2	2025-12-16	2	5400	1900	0	2	5500	profit	10800	3800	7000	38500000	3850	\N	f	\N
57	1	2	3	2025-12-16	1	3800	1200	0	2	5500	profit	3800	1200	2600	14300000	1430	\N	f	\N
58	1	2	12	2025-12-16	2	9500	4200	0	2	5500	profit	19000	8400	10600	58300000	5830	\N	f	\N
59	1	3	5	2025-12-17	2	2600	800	0	3	1200	revenue	5200	1600	3600	6240000	624	\N	f	\N
60	1	3	8	2025-12-17	1	3200	1000	0	3	1200	revenue	3200	1000	2200	3840000	384	\N	f	\N
61	1	3	5	2025-12-17	1	2600	800	0	3	1200	revenue	2600	800	1800	3120000	312	\N	f	\N
62	1	3	3	2025-12-17	1	3800	1200	0	3	1200	revenue	3800	1200	2600	4560000	456	\N	f	\N
63	1	1	5	2025-12-18	1	2600	800	0	1	4000	profit	2600	800	1800	7200000	720	\N	f	\N
64	1	4	8	2025-12-20	1	3200	1000	0	4	5000	profit	3200	1000	2200	11000000	1100	\N	f	\N
65	1	4	9	2025-12-20	1	1500	400	0	4	5000	profit	1500	400	1100	5500000	550	\N	f	\N
66	1	4	3	2025-12-20	1	3800	1200	380	4	5000	profit	3420	1200	2220	11100000	1110	\N	f	\N
67	1	1	11	2025-12-22	2	3500	1300	0	1	4000	profit	7000	2600	4400	17600000	1760	\N	f	\N
68	1	1	11	2025-12-22	1	3500	1300	0	1	4000	profit	3500	1300	2200	8800000	880	\N	f	\N
69	1	1	3	2025-12-22	2	3800	1200	760	1	4000	profit	6840	2400	4440	17760000	1776	\N	f	\N
70	1	1	8	2025-12-22	1	3200	1000	0	1	4000	profit	3200	1000	2200	8800000	880	\N	f	\N
71	1	2	1	2025-12-23	1	6800	2400	0	2	5500	profit	6800	2400	4400	24200000	2420	\N	f	\N
72	1	2	11	2025-12-23	1	3500	1300	0	2	5500	profit	3500	1300	2200	12100000	1210	\N	f	\N
73	1	2	8	2025-12-23	1	3200	1000	0	2	5500	profit	3200	1000	2200	12100000	1210	\N	f	\N
74	1	2	4	2025-12-23	1	7200	2600	0	2	5500	profit	7200	2600	4600	25300000	2530	\N	f	\N
75	1	3	10	2025-12-24	2	4200	1600	0	3	1200	revenue	8400	3200	5200	10080000	1008	\N	f	\N
76	1	3	5	2025-12-24	1	2600	800	0	3	1200	revenue	2600	800	1800	3120000	312	\N	f	\N
77	1	3	4	2025-12-24	1	7200	2600	0	3	1200	revenue	7200	2600	4600	8640000	864	\N	f	\N
78	1	1	3	2025-12-25	1	3800	1200	0	1	4000	profit	3800	1200	2600	10400000	1040	\N	f	\N
79	1	1	3	2025-12-25	1	3800	1200	0	1	4000	profit	3800	1200	2600	10400000	1040	\N	f	\N
80	1	1	2	2025-12-25	-1	5400	1900	0	1	4000	profit	-5400	-1900	-3500	-14000000	-1400	returned	f	\N
81	1	1	1	2025-12-25	1	6800	2400	0	5	4500	profit	6800	2400	4400	19800000	1980	\N	f	\N
82	1	2	3	2025-12-26	2	3800	1200	0	2	5500	profit	7600	2400	5200	28600000	2860	\N	f	\N
83	1	4	10	2025-12-27	2	4200	1600	0	4	5000	profit	8400	3200	5200	26000000	2600	\N	f	\N
84	1	4	3	2025-12-27	1	3800	1200	0	4	5000	profit	3800	1200	2600	13000000	1300	\N	f	\N
85	1	4	1	2025-12-27	1	6800	2400	0	4	5000	profit	6800	2400	4400	22000000	2200	\N	f	\N
86	1	4	6	2025-12-27	1	4500	1500	0	4	5000	profit	4500	1500	3000	15000000	1500	\N	f	\N
87	1	4	2	2025-12-27	2	5400	1900	0	4	5000	profit	10800	3800	7000	35000000	3500	\N	f	\N
88	1	4	3	2025-12-27	1	3800	1200	380	4	5000	profit	3420	1200	2220	11100000	1110	\N	f	\N
89	1	1	3	2025-12-29	1	3800	1200	0	1	4000	profit	3800	1200	2600	10400000	1040	\N	f	\N
90	1	1	3	2025-12-29	1	3800	1200	380	1	4000	profit	3420	1200	2220	8880000	888	\N	f	\N
91	1	2	5	2025-12-30	2	2600	800	0	2	5500	profit	5200	1600	3600	19800000	1980	\N	f	\N
92	1	2	12	2025-12-30	1	9500	4200	0	2	5500	profit	9500	4200	5300	29150000	2915	\N	f	\N
93	1	2	4	2025-12-30	1	7200	2600	0	2	5500	profit	7200	2600	4600	25300000	2530	\N	f	\N
94	1	2	3	2025-12-30	1	3800	1200	0	2	5500	profit	3800	1200	2600	14300000	1430	\N	f	\N
95	1	2	3	2025-12-30	1	3800	1200	0	2	5500	profit	3800	1200	2600	14300000	1430	\N	f	\N
96	1	2	3	2025-12-30	1	3800	1200	0	2	5500	profit	3800	1200	2600	14300000	1430	\N	f	\N
97	1	3	1	2025-12-31	1	6800	2400	0	3	1200	revenue	6800	2400	4400	8160000	816	\N	f	\N
98	1	3	7	2025-12-31	-1	8900	3300	0	3	1200	revenue	-8900	-3300	-5600	-10680000	-1068	returned	f	\N
99	1	3	8	2025-12-31	2	3200	1000	0	3	1200	revenue	6400	2000	4400	7680000	768	\N	f	\N
100	1	1	5	2026-01-01	1	2600	800	0	1	4000	profit	2600	800	1800	7200000	720	\N	f	\N
101	1	1	1	2026-01-01	1	6800	2400	0	5	4500	profit	6800	2400	4400	19800000	1980	\N	f	\N
102	1	1	4	2026-01-01	2	7200	2600	0	1	4000	profit	14400	5200	9200	36800000	3680	\N	f	\N
103	1	1	2	2026-01-01	2	5400	1900	0	1	4000	profit	10800	3800	7000	28000000	2800	\N	f	\N
104	1	2	5	2026-01-02	1	2600	800	0	2	5500	profit	2600	800	1800	9900000	990	\N	f	\N
105	1	2	7	2026-01-02	1	8900	3300	0	2	5500	profit	8900	3300	5600	30800000	3080	\N	f	\N
106	1	2	1	2026-01-02	1	6800	2400	0	2	5500	profit	6800	2400	4400	24200000	2420	\N	f	\N
107	1	2	6	2026-01-02	1	4500	1500	0	2	5500	profit	4500	1500	3000	16500000	1650	\N	f	\N
108	1	2	12	2026-01-02	1	9500	4200	0	2	5500	profit	9500	4200	5300	29150000	2915	\N	f	\N
109	1	2	9	2026-01-02	1	1500	400	0	2	5500	profit	1500	400	1100	6050000	605	\N	f	\N
110	1	4	7	2026-01-03	1	8900	3300	0	4	5000	profit	8900	3300	5600	28000000	2800	\N	f	\N
111	1	4	3	2026-01-03	-1	3800	1200	0	4	5000	profit	-3800	-1200	-2600	-13000000	-1300	returned	f	\N
112	1	4	4	2026-01-03	1	7200	2600	1080	4	5000	profit	6120	2600	3520	17600000	1760	\N	f	\N
113	1	4	7	2026-01-03	1	8900	3300	0	4	5000	profit	8900	3300	5600	28000000	2800	\N	f	\N
114	1	4	2	2026-01-03	2	5400	1900	0	4	5000	profit	10800	3800	7000	35000000	3500	\N	f	\N
115	1	1	2	2026-01-05	1	5400	1900	0	1	4000	profit	5400	1900	3500	14000000	1400	\N	f	\N
116	1	1	8	2026-01-05	1	3200	1000	0	1	4000	profit	3200	1000	2200	8800000	880	\N	f	\N
117	1	1	1	2026-01-05	1	6800	2400	0	5	4500	profit	6800	2400	4400	19800000	1980	\N	f	\N
118	1	1	3	2026-01-05	1	3800	1200	0	1	4000	profit	3800	1200	2600	10400000	1040	\N	f	\N
119	1	1	7	2026-01-05	1	8900	3300	0	1	4000	profit	8900	3300	5600	22400000	2240	\N	f	\N
120	1	2	2	2026-01-06	1	5400	1900	0	2	5500	profit	5400	1900	3500	19250000	1925	\N	f	\N
121	1	2	11	2026-01-06	1	3500	1300	0	2	5500	profit	3500	1300	2200	12100000	1210	\N	f	\N
122	1	2	3	2026-01-06	1	3800	1200	760	2	5500	profit	3040	1200	1840	10120000	1012	\N	f	\N
123	1	2	11	2026-01-06	1	3500	1300	0	2	5500	profit	3500	1300	2200	12100000	1210	\N	f	\N
124	1	3	3	2026-01-07	1	3800	1200	760	3	1200	revenue	3040	1200	1840	3648000	365	\N	f	\N
125	1	3	10	2026-01-07	1	4200	1600	0	3	1200	revenue	4200	1600	2600	5040000	504	\N	f	\N
126	1	3	2	2026-01-07	1	5400	1900	0	3	1200	revenue	5400	1900	3500	6480000	648	\N	f	\N
127	1	1	3	2026-01-08	1	3800	1200	0	1	4000	profit	3800	1200	2600	10400000	1040	\N	f	\N
128	1	1	3	2026-01-08	1	3800	1200	0	1	4000	profit	3800	1200	2600	10400000	1040	\N	f	\N
129	1	1	8	2026-01-08	1	3200	1000	0	1	4000	profit	3200	1000	2200	8800000	880	\N	f	\N
130	1	1	3	2026-01-08	1	3800	1200	0	1	4000	profit	3800	1200	2600	10400000	1040	\N	f	\N
131	1	2	9	2026-01-09	1	1500	400	0	2	5500	profit	1500	400	1100	6050000	605	\N	f	\N
132	1	2	9	2026-01-09	2	1500	400	0	2	5500	profit	3000	800	2200	12100000	1210	\N	f	\N
133	1	2	4	2026-01-09	1	7200	2600	0	2	5500	profit	7200	2600	4600	25300000	2530	\N	f	\N
134	1	2	6	2026-01-09	2	4500	1500	0	2	5500	profit	9000	3000	6000	33000000	3300	\N	f	\N
135	1	4	4	2026-01-10	1	7200	2600	0	4	5000	profit	7200	2600	4600	23000000	2300	\N	f	\N
136	1	4	10	2026-01-10	1	4200	1600	0	4	5000	profit	4200	1600	2600	13000000	1300	\N	f	\N
137	1	4	1	2026-01-10	1	6800	2400	0	4	5000	profit	6800	2400	4400	22000000	2200	\N	f	\N
138	1	4	12	2026-01-10	1	9500	4200	0	4	5000	profit	9500	4200	5300	26500000	2650	\N	f	\N
139	1	4	10	2026-01-10	1	4200	1600	630	4	5000	profit	3570	1600	1970	9850000	985	\N	f	\N
140	1	4	6	2026-01-10	2	4500	1500	0	4	5000	profit	9000	3000	6000	30000000	3000	\N	f	\N
141	1	1	7	2026-01-12	1	8900	3300	0	1	4000	profit	8900	3300	5600	22400000	2240	\N	f	\N
142	1	1	8	2026-01-12	1	3200	1000	0	1	4000	profit	3200	1000	2200	8800000	880	\N	f	\N
143	1	1	1	2026-01-12	1	6800	2400	0	5	4500	profit	6800	2400	4400	19800000	1980	\N	f	\N
144	1	1	4	2026-01-12	1	7200	2600	0	1	4000	profit	7200	2600	4600	18400000	1840	\N	f	\N
145	1	2	5	2026-01-13	1	2600	800	0	2	5500	profit	2600	800	1800	9900000	990	\N	f	\N
146	1	2	10	2026-01-13	1	4200	1600	0	2	5500	profit	4200	1600	2600	14300000	1430	\N	f	\N
147	1	2	7	2026-01-13	1	8900	3300	0	2	5500	profit	8900	3300	5600	30800000	3080	\N	f	\N
148	1	3	3	2026-01-14	1	3800	1200	0	3	1200	revenue	3800	1200	2600	4560000	456	\N	f	\N
149	1	3	11	2026-01-14	1	3500	1300	0	3	1200	revenue	3500	1300	2200	4200000	420	\N	f	\N
150	1	3	4	2026-01-14	1	7200	2600	0	3	1200	revenue	7200	2600	4600	8640000	864	\N	f	\N
151	1	1	4	2026-01-15	1	7200	2600	0	1	4000	profit	7200	2600	4600	18400000	1840	\N	f	\N
152	1	1	8	2026-01-15	1	3200	1000	0	1	4000	profit	3200	1000	2200	8800000	880	\N	f	\N
153	1	2	5	2026-01-16	1	2600	800	0	2	5500	profit	2600	800	1800	9900000	990	\N	f	\N
154	1	2	9	2026-01-16	2	1500	400	0	2	5500	profit	3000	800	2200	12100000	1210	\N	f	\N
155	1	2	7	2026-01-16	1	8900	3300	890	2	5500	profit	8010	3300	4710	25905000	2591	\N	f	\N
156	1	2	2	2026-01-16	1	5400	1900	0	\N	\N	\N	5400	1900	3500	0	0	sample	f	\N
157	1	4	4	2026-01-17	2	7200	2600	0	4	5000	profit	14400	5200	9200	46000000	4600	\N	f	\N
158	1	4	1	2026-01-17	2	6800	2400	0	4	5000	profit	13600	4800	8800	44000000	4400	\N	f	\N
159	1	4	12	2026-01-17	1	9500	4200	0	4	5000	profit	9500	4200	5300	26500000	2650	\N	f	\N
160	1	4	5	2026-01-17	-1	2600	800	0	4	5000	profit	-2600	-800	-1800	-9000000	-900	returned	f	\N
161	1	4	1	2026-01-17	1	6800	2400	0	4	5000	profit	6800	2400	4400	22000000	2200	\N	f	\N
162	1	1	7	2026-01-19	1	8900	3300	0	1	4000	profit	8900	3300	5600	22400000	2240	\N	f	\N
163	1	1	9	2026-01-19	1	1500	400	150	1	4000	profit	1350	400	950	3800000	380	\N	f	\N
164	1	2	6	2026-01-20	2	4500	1500	0	2	5500	profit	9000	3000	6000	33000000	3300	\N	f	\N
165	1	2	1	2026-01-20	1	6800	2400	0	2	5500	profit	6800	2400	4400	24200000	2420	\N	f	\N
166	1	2	5	2026-01-20	1	2600	800	0	2	5500	profit	2600	800	1800	9900000	990	\N	f	\N
167	1	3	9	2026-01-21	1	1500	400	0	3	1200	revenue	1500	400	1100	1800000	180	\N	f	\N
168	1	3	2	2026-01-21	1	5400	1900	0	3	1200	revenue	5400	1900	3500	6480000	648	\N	f	\N
169	1	3	2	2026-01-21	1	5400	1900	810	3	1200	revenue	4590	1900	2690	5508000	551	\N	f	\N
170	1	3	4	2026-01-21	1	7200	2600	0	3	1200	revenue	7200	2600	4600	8640000	864	\N	f	\N
171	1	3	6	2026-01-21	2	4500	1500	0	3	1200	revenue	9000	3000	6000	10800000	1080	\N	f	\N
172	1	1	9	2026-01-22	1	1500	400	0	1	4000	profit	1500	400	1100	4400000	440	\N	f	\N
173	1	1	2	2026-01-22	1	5400	1900	0	1	4000	profit	5400	1900	3500	14000000	1400	\N	f	\N
174	1	1	6	2026-01-22	1	4500	1500	0	1	4000	profit	4500	1500	3000	12000000	1200	\N	f	\N
175	1	1	8	2026-01-22	1	3200	1000	0	\N	\N	\N	3200	1000	2200	0	0	sample	f	\N
176	1	1	8	2026-01-22	2	3200	1000	0	1	4000	profit	6400	2000	4400	17600000	1760	\N	f	\N
177	1	1	2	2026-01-22	2	5400	1900	0	1	4000	profit	10800	3800	7000	28000000	2800	\N	f	\N
178	1	2	7	2026-01-23	1	8900	3300	0	2	5500	profit	8900	3300	5600	30800000	3080	\N	f	\N
179	1	2	6	2026-01-23	1	4500	1500	0	2	5500	profit	4500	1500	3000	16500000	1650	\N	f	\N
180	1	1	11	2026-01-26	1	3500	1300	350	1	4000	profit	3150	1300	1850	7400000	740	\N	f	\N
181	1	2	3	2026-01-27	-1	3800	1200	0	2	5500	profit	-3800	-1200	-2600	-14300000	-1430	returned	f	\N
182	1	3	2	2026-01-28	1	5400	1900	0	3	1200	revenue	5400	1900	3500	6480000	648	\N	f	\N
183	1	3	10	2026-01-28	1	4200	1600	0	3	1200	revenue	4200	1600	2600	5040000	504	\N	f	\N
184	1	3	8	2026-01-28	2	3200	1000	0	3	1200	revenue	6400	2000	4400	7680000	768	\N	f	\N
185	1	3	7	2026-01-28	1	8900	3300	0	3	1200	revenue	8900	3300	5600	10680000	1068	\N	f	\N
186	1	1	5	2026-01-29	2	2600	800	0	1	4000	profit	5200	1600	3600	14400000	1440	\N	f	\N
187	1	2	10	2026-01-30	1	4200	1600	0	2	5500	profit	4200	1600	2600	14300000	1430	\N	f	\N
188	1	2	8	2026-01-30	1	3200	1000	0	2	5500	profit	3200	1000	2200	12100000	1210	\N	f	\N
189	1	2	3	2026-01-30	2	3800	1200	0	2	5500	profit	7600	2400	5200	28600000	2860	\N	f	\N
190	1	2	5	2026-01-30	1	2600	800	0	2	5500	profit	2600	800	1800	9900000	990	\N	f	\N
191	1	2	8	2026-01-30	1	3200	1000	0	2	5500	profit	3200	1000	2200	12100000	1210	\N	f	\N
192	1	2	7	2026-01-30	1	8900	3300	0	\N	\N	\N	8900	3300	5600	0	0	sample	f	\N
193	1	4	7	2026-01-31	1	8900	3300	0	4	5000	profit	8900	3300	5600	28000000	2800	\N	f	\N
194	1	4	2	2026-01-31	1	5400	1900	0	4	5000	profit	5400	1900	3500	17500000	1750	\N	f	\N
195	1	4	6	2026-01-31	2	4500	1500	0	4	5000	profit	9000	3000	6000	30000000	3000	\N	f	\N
196	1	4	8	2026-01-31	1	3200	1000	0	4	5000	profit	3200	1000	2200	11000000	1100	\N	f	\N
197	1	4	8	2026-01-31	1	3200	1000	0	4	5000	profit	3200	1000	2200	11000000	1100	\N	f	\N
198	1	4	3	2026-01-31	1	3800	1200	0	4	5000	profit	3800	1200	2600	13000000	1300	\N	f	\N
199	1	1	3	2026-02-02	1	3800	1200	0	1	4000	profit	3800	1200	2600	10400000	1040	\N	f	\N
200	1	2	12	2026-02-03	1	9500	4200	0	2	5500	profit	9500	4200	5300	29150000	2915	\N	f	\N
201	1	2	2	2026-02-03	1	5400	1900	0	2	5500	profit	5400	1900	3500	19250000	1925	\N	f	\N
202	1	2	3	2026-02-03	1	3800	1200	0	2	5500	profit	3800	1200	2600	14300000	1430	\N	f	\N
203	1	2	9	2026-02-03	1	1500	400	0	2	5500	profit	1500	400	1100	6050000	605	\N	f	\N
204	1	2	2	2026-02-03	2	5400	1900	0	2	5500	profit	10800	3800	7000	38500000	3850	\N	f	\N
205	1	3	1	2026-02-04	1	6800	2400	0	\N	\N	\N	6800	2400	4400	0	0	sample	f	\N
206	1	3	4	2026-02-04	1	7200	2600	0	3	1200	revenue	7200	2600	4600	8640000	864	\N	f	\N
207	1	1	1	2026-02-05	1	6800	2400	0	5	4500	profit	6800	2400	4400	19800000	1980	\N	f	\N
208	1	1	3	2026-02-05	1	3800	1200	0	1	4000	profit	3800	1200	2600	10400000	1040	\N	f	\N
209	1	2	8	2026-02-06	1	3200	1000	0	2	5500	profit	3200	1000	2200	12100000	1210	\N	f	\N
210	1	2	9	2026-02-06	1	1500	400	0	2	5500	profit	1500	400	1100	6050000	605	\N	f	\N
211	1	2	6	2026-02-06	2	4500	1500	0	2	5500	profit	9000	3000	6000	33000000	3300	\N	f	\N
212	1	2	4	2026-02-06	1	7200	2600	720	2	5500	profit	6480	2600	3880	21340000	2134	\N	f	\N
213	1	2	3	2026-02-06	1	3800	1200	380	2	5500	profit	3420	1200	2220	12210000	1221	\N	f	\N
214	1	4	2	2026-02-07	1	5400	1900	810	4	5000	profit	4590	1900	2690	13450000	1345	\N	f	\N
215	1	4	5	2026-02-07	1	2600	800	0	\N	\N	\N	2600	800	1800	0	0	sample	f	\N
216	1	4	10	2026-02-07	-1	4200	1600	0	4	5000	profit	-4200	-1600	-2600	-13000000	-1300	returned	f	\N
217	1	4	8	2026-02-07	1	3200	1000	0	4	5000	profit	3200	1000	2200	11000000	1100	\N	f	\N
218	1	4	2	2026-02-07	1	5400	1900	0	4	5000	profit	5400	1900	3500	17500000	1750	\N	f	\N
219	1	1	4	2026-02-09	1	7200	2600	720	1	4000	profit	6480	2600	3880	15520000	1552	\N	f	\N
220	1	2	10	2026-02-10	1	4200	1600	0	2	5500	profit	4200	1600	2600	14300000	1430	\N	f	\N
221	1	2	5	2026-02-10	1	2600	800	0	2	5500	profit	2600	800	1800	9900000	990	\N	f	\N
222	1	2	7	2026-02-10	1	8900	3300	0	2	5500	profit	8900	3300	5600	30800000	3080	\N	f	\N
223	1	2	9	2026-02-10	1	1500	400	0	2	5500	profit	1500	400	1100	6050000	605	\N	f	\N
224	1	3	4	2026-02-11	1	7200	2600	0	3	1200	revenue	7200	2600	4600	8640000	864	\N	f	\N
225	1	3	9	2026-02-11	1	1500	400	0	3	1200	revenue	1500	400	1100	1800000	180	\N	f	\N
226	1	3	12	2026-02-11	1	9500	4200	0	3	1200	revenue	9500	4200	5300	11400000	1140	\N	f	\N
227	1	1	2	2026-02-12	1	5400	1900	0	1	4000	profit	5400	1900	3500	14000000	1400	\N	f	\N
228	1	2	7	2026-02-13	2	8900	3300	2670	2	5500	profit	15130	6600	8530	46915000	4692	\N	f	\N
229	1	2	9	2026-02-13	1	1500	400	0	2	5500	profit	1500	400	1100	6050000	605	\N	f	\N
230	1	2	5	2026-02-13	2	2600	800	0	2	5500	profit	5200	1600	3600	19800000	1980	\N	f	\N
231	1	2	9	2026-02-13	-1	1500	400	0	2	5500	profit	-1500	-400	-1100	-6050000	-605	returned	f	\N
232	1	2	2	2026-02-13	1	5400	1900	0	2	5500	profit	5400	1900	3500	19250000	1925	\N	f	\N
233	1	2	8	2026-02-13	1	3200	1000	0	2	5500	profit	3200	1000	2200	12100000	1210	\N	f	\N
234	1	4	8	2026-02-14	1	3200	1000	0	4	5000	profit	3200	1000	2200	11000000	1100	\N	f	\N
235	1	4	8	2026-02-14	1	3200	1000	0	4	5000	profit	3200	1000	2200	11000000	1100	\N	f	\N
236	1	4	4	2026-02-14	1	7200	2600	0	4	5000	profit	7200	2600	4600	23000000	2300	\N	f	\N
237	1	4	3	2026-02-14	2	3800	1200	0	4	5000	profit	7600	2400	5200	26000000	2600	\N	f	\N
238	1	4	3	2026-02-14	1	3800	1200	0	4	5000	profit	3800	1200	2600	13000000	1300	\N	f	\N
239	1	1	4	2026-02-16	1	7200	2600	720	1	4000	profit	6480	2600	3880	15520000	1552	\N	f	\N
240	1	1	5	2026-02-16	1	2600	800	0	1	4000	profit	2600	800	1800	7200000	720	\N	f	\N
241	1	1	3	2026-02-16	2	3800	1200	0	1	4000	profit	7600	2400	5200	20800000	2080	\N	f	\N
242	1	2	2	2026-02-17	2	5400	1900	0	2	5500	profit	10800	3800	7000	38500000	3850	\N	f	\N
243	1	3	3	2026-02-18	1	3800	1200	0	3	1200	revenue	3800	1200	2600	4560000	456	\N	f	\N
244	1	3	8	2026-02-18	2	3200	1000	0	3	1200	revenue	6400	2000	4400	7680000	768	\N	f	\N
245	1	3	5	2026-02-18	1	2600	800	0	3	1200	revenue	2600	800	1800	3120000	312	\N	f	\N
246	1	3	9	2026-02-18	1	1500	400	0	3	1200	revenue	1500	400	1100	1800000	180	\N	f	\N
247	1	3	9	2026-02-18	1	1500	400	0	3	1200	revenue	1500	400	1100	1800000	180	\N	f	\N
248	1	1	8	2026-02-19	1	3200	1000	0	1	4000	profit	3200	1000	2200	8800000	880	\N	f	\N
249	1	1	4	2026-02-19	1	7200	2600	0	1	4000	profit	7200	2600	4600	18400000	1840	\N	f	\N
250	1	1	3	2026-02-19	1	3800	1200	0	1	4000	profit	3800	1200	2600	10400000	1040	\N	f	\N
251	1	1	4	2026-02-19	1	7200	2600	0	1	4000	profit	7200	2600	4600	18400000	1840	\N	f	\N
252	1	1	3	2026-02-19	-1	3800	1200	0	1	4000	profit	-3800	-1200	-2600	-10400000	-1040	returned	f	\N
253	1	2	9	2026-02-20	1	1500	400	0	2	5500	profit	1500	400	1100	6050000	605	\N	f	\N
254	1	2	9	2026-02-20	2	1500	400	600	2	5500	profit	2400	800	1600	8800000	880	\N	f	\N
255	1	2	2	2026-02-20	1	5400	1900	0	2	5500	profit	5400	1900	3500	19250000	1925	\N	f	\N
256	1	2	3	2026-02-20	1	3800	1200	0	2	5500	profit	3800	1200	2600	14300000	1430	\N	f	\N
257	1	2	7	2026-02-20	1	8900	3300	0	2	5500	profit	8900	3300	5600	30800000	3080	\N	f	\N
258	1	4	3	2026-02-21	-1	3800	1200	0	4	5000	profit	-3800	-1200	-2600	-13000000	-1300	returned	f	\N
259	1	1	9	2026-02-23	2	1500	400	0	1	4000	profit	3000	800	2200	8800000	880	\N	f	\N
260	1	1	10	2026-02-23	1	4200	1600	0	1	4000	profit	4200	1600	2600	10400000	1040	\N	f	\N
261	1	2	10	2026-02-24	1	4200	1600	0	2	5500	profit	4200	1600	2600	14300000	1430	\N	f	\N
262	1	2	3	2026-02-24	1	3800	1200	570	2	5500	profit	3230	1200	2030	11165000	1117	\N	f	\N
263	1	2	1	2026-02-24	2	6800	2400	0	2	5500	profit	13600	4800	8800	48400000	4840	\N	f	\N
264	1	2	11	2026-02-24	1	3500	1300	0	2	5500	profit	3500	1300	2200	12100000	1210	\N	f	\N
265	1	3	5	2026-02-25	1	2600	800	0	3	1200	revenue	2600	800	1800	3120000	312	\N	f	\N
266	1	3	4	2026-02-25	1	7200	2600	0	3	1200	revenue	7200	2600	4600	8640000	864	\N	f	\N
267	1	3	12	2026-02-25	1	9500	4200	0	3	1200	revenue	9500	4200	5300	11400000	1140	\N	f	\N
268	1	3	5	2026-02-25	1	2600	800	0	3	1200	revenue	2600	800	1800	3120000	312	\N	f	\N
269	1	1	11	2026-02-26	1	3500	1300	0	1	4000	profit	3500	1300	2200	8800000	880	\N	f	\N
270	1	2	2	2026-02-27	1	5400	1900	0	2	5500	profit	5400	1900	3500	19250000	1925	\N	f	\N
271	1	2	4	2026-02-27	1	7200	2600	0	2	5500	profit	7200	2600	4600	25300000	2530	\N	f	\N
272	1	2	2	2026-02-27	1	5400	1900	0	2	5500	profit	5400	1900	3500	19250000	1925	\N	f	\N
273	1	2	3	2026-02-27	1	3800	1200	0	2	5500	profit	3800	1200	2600	14300000	1430	\N	f	\N
274	1	2	9	2026-02-27	1	1500	400	0	2	5500	profit	1500	400	1100	6050000	605	\N	f	\N
275	1	2	5	2026-02-27	1	2600	800	0	2	5500	profit	2600	800	1800	9900000	990	\N	f	\N
276	1	4	6	2026-02-28	2	4500	1500	0	4	5000	profit	9000	3000	6000	30000000	3000	\N	f	\N
277	1	4	7	2026-02-28	1	8900	3300	0	4	5000	profit	8900	3300	5600	28000000	2800	\N	f	\N
278	1	4	1	2026-02-28	1	6800	2400	0	4	5000	profit	6800	2400	4400	22000000	2200	\N	f	\N
279	1	4	1	2026-02-28	1	6800	2400	0	4	5000	profit	6800	2400	4400	22000000	2200	\N	f	\N
280	1	1	11	2026-03-02	1	3500	1300	0	1	4000	profit	3500	1300	2200	8800000	880	\N	f	\N
281	1	1	1	2026-03-02	1	6800	2400	0	5	4500	profit	6800	2400	4400	19800000	1980	\N	f	\N
282	1	1	1	2026-03-02	2	6800	2400	0	5	4500	profit	13600	4800	8800	39600000	3960	\N	f	\N
283	1	2	1	2026-03-03	2	6800	2400	0	2	5500	profit	13600	4800	8800	48400000	4840	\N	f	\N
284	1	2	5	2026-03-03	2	2600	800	1040	2	5500	profit	4160	1600	2560	14080000	1408	\N	f	\N
285	1	3	1	2026-03-04	1	6800	2400	0	3	1200	revenue	6800	2400	4400	8160000	816	\N	f	\N
286	1	3	11	2026-03-04	1	3500	1300	0	3	1200	revenue	3500	1300	2200	4200000	420	\N	f	\N
287	1	3	3	2026-03-04	1	3800	1200	0	3	1200	revenue	3800	1200	2600	4560000	456	\N	f	\N
288	1	1	5	2026-03-05	1	2600	800	0	1	4000	profit	2600	800	1800	7200000	720	\N	f	\N
289	1	1	3	2026-03-05	-1	3800	1200	0	1	4000	profit	-3800	-1200	-2600	-10400000	-1040	returned	f	\N
290	1	1	9	2026-03-05	2	1500	400	0	1	4000	profit	3000	800	2200	8800000	880	\N	f	\N
291	1	1	12	2026-03-05	1	9500	4200	1425	1	4000	profit	8075	4200	3875	15500000	1550	\N	f	\N
292	1	1	5	2026-03-05	-1	2600	800	0	1	4000	profit	-2600	-800	-1800	-7200000	-720	returned	f	\N
293	1	1	4	2026-03-05	1	7200	2600	0	1	4000	profit	7200	2600	4600	18400000	1840	\N	f	\N
294	1	2	8	2026-03-06	1	3200	1000	0	2	5500	profit	3200	1000	2200	12100000	1210	\N	f	\N
295	1	1	4	2026-03-09	1	7200	2600	0	1	4000	profit	7200	2600	4600	18400000	1840	\N	f	\N
296	1	1	11	2026-03-09	1	3500	1300	0	1	4000	profit	3500	1300	2200	8800000	880	\N	f	\N
297	1	1	10	2026-03-09	2	4200	1600	0	1	4000	profit	8400	3200	5200	20800000	2080	\N	f	\N
298	1	1	5	2026-03-09	2	2600	800	0	1	4000	profit	5200	1600	3600	14400000	1440	\N	f	\N
299	1	1	4	2026-03-09	1	7200	2600	0	1	4000	profit	7200	2600	4600	18400000	1840	\N	f	\N
300	1	1	10	2026-03-09	1	4200	1600	0	1	4000	profit	4200	1600	2600	10400000	1040	\N	f	\N
301	1	2	6	2026-03-10	1	4500	1500	0	2	5500	profit	4500	1500	3000	16500000	1650	\N	f	\N
302	1	2	6	2026-03-10	1	4500	1500	0	2	5500	profit	4500	1500	3000	16500000	1650	\N	f	\N
303	1	2	3	2026-03-10	1	3800	1200	0	2	5500	profit	3800	1200	2600	14300000	1430	\N	f	\N
304	1	2	5	2026-03-10	1	2600	800	0	2	5500	profit	2600	800	1800	9900000	990	\N	f	\N
305	1	2	11	2026-03-10	1	3500	1300	0	2	5500	profit	3500	1300	2200	12100000	1210	\N	f	\N
306	1	3	4	2026-03-11	1	7200	2600	0	3	1200	revenue	7200	2600	4600	8640000	864	\N	f	\N
307	1	3	4	2026-03-11	1	7200	2600	0	3	1200	revenue	7200	2600	4600	8640000	864	\N	f	\N
308	1	3	1	2026-03-11	1	6800	2400	0	3	1200	revenue	6800	2400	4400	8160000	816	\N	f	\N
309	1	1	9	2026-03-12	1	1500	400	0	1	4000	profit	1500	400	1100	4400000	440	\N	f	\N
310	1	1	5	2026-03-12	1	2600	800	0	1	4000	profit	2600	800	1800	7200000	720	\N	f	\N
311	1	1	1	2026-03-12	2	6800	2400	0	5	4500	profit	13600	4800	8800	39600000	3960	\N	f	\N
312	1	1	1	2026-03-12	1	6800	2400	0	5	4500	profit	6800	2400	4400	19800000	1980	\N	f	\N
313	1	2	1	2026-03-13	1	6800	2400	0	2	5500	profit	6800	2400	4400	24200000	2420	\N	f	\N
314	1	4	8	2026-03-14	2	3200	1000	0	4	5000	profit	6400	2000	4400	22000000	2200	\N	f	\N
315	1	4	7	2026-03-14	2	8900	3300	0	4	5000	profit	17800	6600	11200	56000000	5600	\N	f	\N
316	1	4	1	2026-03-14	1	6800	2400	0	4	5000	profit	6800	2400	4400	22000000	2200	\N	f	\N
317	1	4	1	2026-03-14	1	6800	2400	0	4	5000	profit	6800	2400	4400	22000000	2200	\N	f	\N
318	1	1	5	2026-03-16	1	2600	800	0	1	4000	profit	2600	800	1800	7200000	720	\N	f	\N
319	1	1	9	2026-03-16	1	1500	400	0	1	4000	profit	1500	400	1100	4400000	440	\N	f	\N
320	1	1	6	2026-03-16	2	4500	1500	0	1	4000	profit	9000	3000	6000	24000000	2400	\N	f	\N
321	1	1	7	2026-03-16	1	8900	3300	0	1	4000	profit	8900	3300	5600	22400000	2240	\N	f	\N
322	1	2	8	2026-03-17	1	3200	1000	0	2	5500	profit	3200	1000	2200	12100000	1210	\N	f	\N
323	1	3	9	2026-03-18	1	1500	400	0	3	1200	revenue	1500	400	1100	1800000	180	\N	f	\N
324	1	3	5	2026-03-18	1	2600	800	260	3	1200	revenue	2340	800	1540	2808000	281	\N	f	\N
325	1	3	7	2026-03-18	1	8900	3300	890	3	1200	revenue	8010	3300	4710	9612000	961	\N	f	\N
326	1	3	5	2026-03-18	1	2600	800	0	3	1200	revenue	2600	800	1800	3120000	312	\N	f	\N
327	1	3	2	2026-03-18	1	5400	1900	0	3	1200	revenue	5400	1900	3500	6480000	648	\N	f	\N
328	1	1	4	2026-03-19	1	7200	2600	0	1	4000	profit	7200	2600	4600	18400000	1840	\N	f	\N
329	1	2	1	2026-03-20	1	6800	2400	0	2	5500	profit	6800	2400	4400	24200000	2420	\N	f	\N
330	1	4	9	2026-03-21	2	1500	400	0	4	5000	profit	3000	800	2200	11000000	1100	\N	f	\N
331	1	4	5	2026-03-21	-1	2600	800	0	4	5000	profit	-2600	-800	-1800	-9000000	-900	returned	f	\N
332	1	4	2	2026-03-21	-1	5400	1900	0	4	5000	profit	-5400	-1900	-3500	-17500000	-1750	returned	f	\N
333	1	4	5	2026-03-21	1	2600	800	0	4	5000	profit	2600	800	1800	9000000	900	\N	f	\N
334	1	4	5	2026-03-21	1	2600	800	0	4	5000	profit	2600	800	1800	9000000	900	\N	f	\N
335	1	4	6	2026-03-21	2	4500	1500	0	4	5000	profit	9000	3000	6000	30000000	3000	\N	f	\N
336	1	1	7	2026-03-23	2	8900	3300	0	1	4000	profit	17800	6600	11200	44800000	4480	\N	f	\N
337	1	1	3	2026-03-23	1	3800	1200	760	1	4000	profit	3040	1200	1840	7360000	736	\N	f	\N
338	1	1	3	2026-03-23	2	3800	1200	0	1	4000	profit	7600	2400	5200	20800000	2080	\N	f	\N
339	1	1	8	2026-03-23	2	3200	1000	0	1	4000	profit	6400	2000	4400	17600000	1760	\N	f	\N
340	1	2	1	2026-03-24	1	6800	2400	0	2	5500	profit	6800	2400	4400	24200000	2420	\N	f	\N
341	1	3	3	2026-03-25	1	3800	1200	0	3	1200	revenue	3800	1200	2600	4560000	456	\N	f	\N
342	1	3	7	2026-03-25	2	8900	3300	1780	3	1200	revenue	16020	6600	9420	19224000	1922	\N	f	\N
343	1	3	4	2026-03-25	1	7200	2600	0	3	1200	revenue	7200	2600	4600	8640000	864	\N	f	\N
344	1	3	11	2026-03-25	2	3500	1300	0	3	1200	revenue	7000	2600	4400	8400000	840	\N	f	\N
345	1	3	3	2026-03-25	1	3800	1200	0	3	1200	revenue	3800	1200	2600	4560000	456	\N	f	\N
346	1	1	9	2026-03-26	1	1500	400	0	1	4000	profit	1500	400	1100	4400000	440	\N	f	\N
347	1	1	11	2026-03-26	1	3500	1300	0	1	4000	profit	3500	1300	2200	8800000	880	\N	f	\N
348	1	1	11	2026-03-26	-1	3500	1300	0	1	4000	profit	-3500	-1300	-2200	-8800000	-880	returned	f	\N
349	1	1	8	2026-03-26	2	3200	1000	0	1	4000	profit	6400	2000	4400	17600000	1760	\N	f	\N
350	1	1	4	2026-03-26	2	7200	2600	2880	1	4000	profit	11520	5200	6320	25280000	2528	\N	f	\N
351	1	2	10	2026-03-27	1	4200	1600	0	2	5500	profit	4200	1600	2600	14300000	1430	\N	f	\N
352	1	2	1	2026-03-27	2	6800	2400	0	2	5500	profit	13600	4800	8800	48400000	4840	\N	f	\N
353	1	2	1	2026-03-27	1	6800	2400	0	2	5500	profit	6800	2400	4400	24200000	2420	\N	f	\N
354	1	2	4	2026-03-27	1	7200	2600	0	2	5500	profit	7200	2600	4600	25300000	2530	\N	f	\N
355	1	4	9	2026-03-28	1	1500	400	0	4	5000	profit	1500	400	1100	5500000	550	\N	f	\N
356	1	1	3	2026-03-30	1	3800	1200	0	1	4000	profit	3800	1200	2600	10400000	1040	\N	f	\N
357	1	1	4	2026-03-30	1	7200	2600	1440	1	4000	profit	5760	2600	3160	12640000	1264	\N	f	\N
358	1	1	1	2026-03-30	1	6800	2400	0	5	4500	profit	6800	2400	4400	19800000	1980	\N	f	\N
359	1	1	1	2026-03-30	1	6800	2400	0	5	4500	profit	6800	2400	4400	19800000	1980	\N	f	\N
360	1	1	4	2026-03-30	2	7200	2600	0	1	4000	profit	14400	5200	9200	36800000	3680	\N	f	\N
361	1	1	5	2026-03-30	2	2600	800	0	1	4000	profit	5200	1600	3600	14400000	1440	\N	f	\N
362	1	2	3	2026-03-31	1	3800	1200	0	2	5500	profit	3800	1200	2600	14300000	1430	\N	f	\N
363	1	3	2	2026-04-01	1	5400	1900	0	3	1200	revenue	5400	1900	3500	6480000	648	\N	f	\N
364	1	3	8	2026-04-01	2	3200	1000	0	3	1200	revenue	6400	2000	4400	7680000	768	\N	f	\N
365	1	3	3	2026-04-01	1	3800	1200	0	3	1200	revenue	3800	1200	2600	4560000	456	\N	f	\N
366	1	3	2	2026-04-01	2	5400	1900	0	3	1200	revenue	10800	3800	7000	12960000	1296	\N	f	\N
367	1	3	9	2026-04-01	1	1500	400	300	3	1200	revenue	1200	400	800	1440000	144	\N	f	\N
368	1	1	3	2026-04-02	1	3800	1200	0	1	4000	profit	3800	1200	2600	10400000	1040	\N	f	\N
369	1	1	10	2026-04-02	1	4200	1600	0	1	4000	profit	4200	1600	2600	10400000	1040	\N	f	\N
370	1	1	4	2026-04-02	1	7200	2600	1080	1	4000	profit	6120	2600	3520	14080000	1408	\N	f	\N
371	1	1	5	2026-04-02	1	2600	800	0	1	4000	profit	2600	800	1800	7200000	720	\N	f	\N
372	1	2	3	2026-04-03	1	3800	1200	0	2	5500	profit	3800	1200	2600	14300000	1430	\N	f	\N
373	1	2	5	2026-04-03	1	2600	800	0	2	5500	profit	2600	800	1800	9900000	990	\N	f	\N
374	1	2	5	2026-04-03	1	2600	800	0	2	5500	profit	2600	800	1800	9900000	990	\N	f	\N
375	1	2	1	2026-04-03	1	6800	2400	0	2	5500	profit	6800	2400	4400	24200000	2420	\N	f	\N
376	1	4	7	2026-04-04	1	8900	3300	0	4	5000	profit	8900	3300	5600	28000000	2800	\N	f	\N
377	1	4	7	2026-04-04	1	8900	3300	1335	4	5000	profit	7565	3300	4265	21325000	2133	\N	f	\N
378	1	4	2	2026-04-04	1	5400	1900	0	4	5000	profit	5400	1900	3500	17500000	1750	\N	f	\N
379	1	4	5	2026-04-04	1	2600	800	0	4	5000	profit	2600	800	1800	9000000	900	\N	f	\N
380	1	1	4	2026-04-06	1	7200	2600	0	1	4000	profit	7200	2600	4600	18400000	1840	\N	f	\N
381	1	1	5	2026-04-06	1	2600	800	0	1	4000	profit	2600	800	1800	7200000	720	\N	f	\N
382	1	1	12	2026-04-06	1	9500	4200	0	1	4000	profit	9500	4200	5300	21200000	2120	\N	f	\N
383	1	1	8	2026-04-06	2	3200	1000	1280	1	4000	profit	5120	2000	3120	12480000	1248	\N	f	\N
384	1	2	8	2026-04-07	2	3200	1000	0	2	5500	profit	6400	2000	4400	24200000	2420	\N	f	\N
385	1	2	4	2026-04-07	1	7200	2600	1080	2	5500	profit	6120	2600	3520	19360000	1936	\N	f	\N
386	1	2	8	2026-04-07	1	3200	1000	0	2	5500	profit	3200	1000	2200	12100000	1210	\N	f	\N
387	1	2	5	2026-04-07	1	2600	800	0	2	5500	profit	2600	800	1800	9900000	990	\N	f	\N
388	1	2	5	2026-04-07	1	2600	800	260	2	5500	profit	2340	800	1540	8470000	847	\N	f	\N
389	1	2	5	2026-04-07	1	2600	800	0	2	5500	profit	2600	800	1800	9900000	990	\N	f	\N
390	1	3	1	2026-04-08	1	6800	2400	0	3	1200	revenue	6800	2400	4400	8160000	816	\N	f	\N
391	1	3	1	2026-04-08	1	6800	2400	0	3	1200	revenue	6800	2400	4400	8160000	816	\N	f	\N
392	1	3	2	2026-04-08	1	5400	1900	0	3	1200	revenue	5400	1900	3500	6480000	648	\N	f	\N
393	1	3	2	2026-04-08	1	5400	1900	0	3	1200	revenue	5400	1900	3500	6480000	648	\N	f	\N
394	1	1	4	2026-04-09	1	7200	2600	0	1	4000	profit	7200	2600	4600	18400000	1840	\N	f	\N
395	1	1	5	2026-04-09	2	2600	800	0	1	4000	profit	5200	1600	3600	14400000	1440	\N	f	\N
396	1	1	6	2026-04-09	1	4500	1500	0	1	4000	profit	4500	1500	3000	12000000	1200	\N	f	\N
397	1	1	4	2026-04-09	1	7200	2600	0	1	4000	profit	7200	2600	4600	18400000	1840	\N	f	\N
398	1	1	9	2026-04-09	2	1500	400	0	1	4000	profit	3000	800	2200	8800000	880	\N	f	\N
399	1	2	6	2026-04-10	2	4500	1500	0	2	5500	profit	9000	3000	6000	33000000	3300	\N	f	\N
400	1	2	9	2026-04-10	1	1500	400	0	2	5500	profit	1500	400	1100	6050000	605	\N	f	\N
401	1	2	5	2026-04-10	1	2600	800	0	2	5500	profit	2600	800	1800	9900000	990	\N	f	\N
402	1	4	7	2026-04-11	1	8900	3300	0	4	5000	profit	8900	3300	5600	28000000	2800	\N	f	\N
403	1	4	1	2026-04-11	1	6800	2400	0	4	5000	profit	6800	2400	4400	22000000	2200	\N	f	\N
404	1	4	5	2026-04-11	1	2600	800	0	4	5000	profit	2600	800	1800	9000000	900	\N	f	\N
405	1	4	10	2026-04-11	2	4200	1600	0	4	5000	profit	8400	3200	5200	26000000	2600	\N	f	\N
406	1	4	5	2026-04-11	1	2600	800	0	4	5000	profit	2600	800	1800	9000000	900	\N	f	\N
407	1	1	3	2026-04-13	1	3800	1200	0	1	4000	profit	3800	1200	2600	10400000	1040	\N	f	\N
408	1	1	1	2026-04-13	1	6800	2400	0	5	4500	profit	6800	2400	4400	19800000	1980	\N	f	\N
409	1	3	8	2026-04-15	1	3200	1000	0	3	1200	revenue	3200	1000	2200	3840000	384	\N	f	\N
410	1	3	1	2026-04-15	1	6800	2400	0	3	1200	revenue	6800	2400	4400	8160000	816	\N	f	\N
411	1	3	12	2026-04-15	1	9500	4200	0	3	1200	revenue	9500	4200	5300	11400000	1140	\N	f	\N
412	1	3	5	2026-04-15	1	2600	800	0	3	1200	revenue	2600	800	1800	3120000	312	\N	f	\N
413	1	3	9	2026-04-15	1	1500	400	0	3	1200	revenue	1500	400	1100	1800000	180	\N	f	\N
414	1	1	10	2026-04-16	1	4200	1600	0	1	4000	profit	4200	1600	2600	10400000	1040	\N	f	\N
415	1	2	2	2026-04-17	1	5400	1900	0	2	5500	profit	5400	1900	3500	19250000	1925	\N	f	\N
416	1	2	3	2026-04-17	1	3800	1200	0	2	5500	profit	3800	1200	2600	14300000	1430	\N	f	\N
417	1	2	2	2026-04-17	1	5400	1900	0	2	5500	profit	5400	1900	3500	19250000	1925	\N	f	\N
418	1	4	11	2026-04-18	1	3500	1300	0	4	5000	profit	3500	1300	2200	11000000	1100	\N	f	\N
419	1	4	8	2026-04-18	2	3200	1000	0	4	5000	profit	6400	2000	4400	22000000	2200	\N	f	\N
420	1	4	6	2026-04-18	1	4500	1500	0	4	5000	profit	4500	1500	3000	15000000	1500	\N	f	\N
421	1	1	4	2026-04-20	2	7200	2600	0	1	4000	profit	14400	5200	9200	36800000	3680	\N	f	\N
422	1	1	3	2026-04-20	2	3800	1200	0	1	4000	profit	7600	2400	5200	20800000	2080	\N	f	\N
423	1	2	1	2026-04-21	1	6800	2400	0	2	5500	profit	6800	2400	4400	24200000	2420	\N	f	\N
424	1	2	9	2026-04-21	2	1500	400	0	2	5500	profit	3000	800	2200	12100000	1210	\N	f	\N
425	1	2	12	2026-04-21	1	9500	4200	0	2	5500	profit	9500	4200	5300	29150000	2915	\N	f	\N
426	1	2	1	2026-04-21	1	6800	2400	1360	2	5500	profit	5440	2400	3040	16720000	1672	\N	f	\N
427	1	2	4	2026-04-21	1	7200	2600	0	2	5500	profit	7200	2600	4600	25300000	2530	\N	f	\N
428	1	1	4	2026-04-23	1	7200	2600	0	1	4000	profit	7200	2600	4600	18400000	1840	\N	f	\N
429	1	1	1	2026-04-23	1	6800	2400	0	5	4500	profit	6800	2400	4400	19800000	1980	\N	f	\N
430	1	1	12	2026-04-23	1	9500	4200	0	1	4000	profit	9500	4200	5300	21200000	2120	\N	f	\N
431	1	1	3	2026-04-23	1	3800	1200	0	1	4000	profit	3800	1200	2600	10400000	1040	\N	f	\N
432	1	1	10	2026-04-23	1	4200	1600	0	1	4000	profit	4200	1600	2600	10400000	1040	\N	f	\N
433	1	1	1	2026-04-23	1	6800	2400	0	5	4500	profit	6800	2400	4400	19800000	1980	\N	f	\N
434	1	2	9	2026-04-24	1	1500	400	300	2	5500	profit	1200	400	800	4400000	440	\N	f	\N
435	1	2	1	2026-04-24	1	6800	2400	0	2	5500	profit	6800	2400	4400	24200000	2420	\N	f	\N
436	1	2	2	2026-04-24	1	5400	1900	0	2	5500	profit	5400	1900	3500	19250000	1925	\N	f	\N
437	1	2	8	2026-04-24	-1	3200	1000	0	2	5500	profit	-3200	-1000	-2200	-12100000	-1210	returned	f	\N
438	1	1	4	2026-04-27	1	7200	2600	0	1	4000	profit	7200	2600	4600	18400000	1840	\N	f	\N
439	1	1	3	2026-04-27	1	3800	1200	0	1	4000	profit	3800	1200	2600	10400000	1040	\N	f	\N
440	1	1	5	2026-04-27	1	2600	800	0	1	4000	profit	2600	800	1800	7200000	720	\N	f	\N
441	1	2	4	2026-04-28	2	7200	2600	0	2	5500	profit	14400	5200	9200	50600000	5060	\N	f	\N
442	1	2	2	2026-04-28	1	5400	1900	540	2	5500	profit	4860	1900	2960	16280000	1628	\N	f	\N
443	1	2	1	2026-04-28	1	6800	2400	0	2	5500	profit	6800	2400	4400	24200000	2420	\N	f	\N
444	1	3	7	2026-04-29	1	8900	3300	0	3	1200	revenue	8900	3300	5600	10680000	1068	\N	f	\N
445	1	3	11	2026-04-29	1	3500	1300	0	3	1200	revenue	3500	1300	2200	4200000	420	\N	f	\N
446	1	3	8	2026-04-29	1	3200	1000	0	3	1200	revenue	3200	1000	2200	3840000	384	\N	f	\N
447	1	3	9	2026-04-29	1	1500	400	0	3	1200	revenue	1500	400	1100	1800000	180	\N	f	\N
448	1	1	6	2026-04-30	1	4500	1500	0	1	4000	profit	4500	1500	3000	12000000	1200	\N	f	\N
449	1	1	3	2026-04-30	1	3800	1200	0	1	4000	profit	3800	1200	2600	10400000	1040	\N	f	\N
450	1	1	2	2026-04-30	1	5400	1900	810	1	4000	profit	4590	1900	2690	10760000	1076	\N	f	\N
451	1	1	9	2026-04-30	1	1500	400	0	1	4000	profit	1500	400	1100	4400000	440	\N	f	\N
452	1	2	5	2026-05-01	2	2600	800	0	2	5500	profit	5200	1600	3600	19800000	1980	\N	f	\N
453	1	2	1	2026-05-01	1	6800	2400	0	2	5500	profit	6800	2400	4400	24200000	2420	\N	f	\N
454	1	2	4	2026-05-01	1	7200	2600	0	2	5500	profit	7200	2600	4600	25300000	2530	\N	f	\N
455	1	2	5	2026-05-01	2	2600	800	0	2	5500	profit	5200	1600	3600	19800000	1980	\N	f	\N
456	1	2	9	2026-05-01	1	1500	400	0	2	5500	profit	1500	400	1100	6050000	605	\N	f	\N
457	1	2	3	2026-05-01	1	3800	1200	0	2	5500	profit	3800	1200	2600	14300000	1430	\N	f	\N
458	1	4	7	2026-05-02	1	8900	3300	0	4	5000	profit	8900	3300	5600	28000000	2800	\N	f	\N
459	1	4	3	2026-05-02	1	3800	1200	380	4	5000	profit	3420	1200	2220	11100000	1110	\N	f	\N
460	1	1	8	2026-05-04	1	3200	1000	0	1	4000	profit	3200	1000	2200	8800000	880	\N	f	\N
461	1	1	8	2026-05-04	1	3200	1000	0	1	4000	profit	3200	1000	2200	8800000	880	\N	f	\N
462	1	1	5	2026-05-04	1	2600	800	0	1	4000	profit	2600	800	1800	7200000	720	\N	f	\N
463	1	1	8	2026-05-04	1	3200	1000	0	1	4000	profit	3200	1000	2200	8800000	880	\N	f	\N
464	1	1	4	2026-05-04	1	7200	2600	0	1	4000	profit	7200	2600	4600	18400000	1840	\N	f	\N
465	1	1	11	2026-05-04	1	3500	1300	0	1	4000	profit	3500	1300	2200	8800000	880	\N	f	\N
466	1	2	5	2026-05-05	1	2600	800	0	2	5500	profit	2600	800	1800	9900000	990	\N	f	\N
467	1	2	8	2026-05-05	1	3200	1000	0	2	5500	profit	3200	1000	2200	12100000	1210	\N	f	\N
468	1	3	1	2026-05-06	1	6800	2400	0	3	1200	revenue	6800	2400	4400	8160000	816	\N	f	\N
469	1	3	3	2026-05-06	1	3800	1200	0	3	1200	revenue	3800	1200	2600	4560000	456	\N	f	\N
470	1	3	5	2026-05-06	1	2600	800	0	3	1200	revenue	2600	800	1800	3120000	312	\N	f	\N
471	1	3	1	2026-05-06	1	6800	2400	0	3	1200	revenue	6800	2400	4400	8160000	816	\N	f	\N
472	1	1	3	2026-05-07	2	3800	1200	0	1	4000	profit	7600	2400	5200	20800000	2080	\N	f	\N
473	1	1	3	2026-05-07	2	3800	1200	0	1	4000	profit	7600	2400	5200	20800000	2080	\N	f	\N
474	1	1	9	2026-05-07	1	1500	400	0	1	4000	profit	1500	400	1100	4400000	440	\N	f	\N
475	1	1	9	2026-05-07	1	1500	400	0	1	4000	profit	1500	400	1100	4400000	440	\N	f	\N
476	1	2	10	2026-05-08	1	4200	1600	0	2	5500	profit	4200	1600	2600	14300000	1430	\N	f	\N
477	1	2	1	2026-05-08	1	6800	2400	0	2	5500	profit	6800	2400	4400	24200000	2420	\N	f	\N
478	1	2	2	2026-05-08	1	5400	1900	0	2	5500	profit	5400	1900	3500	19250000	1925	\N	f	\N
479	1	2	6	2026-05-08	1	4500	1500	0	2	5500	profit	4500	1500	3000	16500000	1650	\N	f	\N
480	1	2	8	2026-05-08	1	3200	1000	0	2	5500	profit	3200	1000	2200	12100000	1210	\N	f	\N
481	1	4	10	2026-05-09	-1	4200	1600	0	4	5000	profit	-4200	-1600	-2600	-13000000	-1300	returned	f	\N
482	1	4	7	2026-05-09	1	8900	3300	0	4	5000	profit	8900	3300	5600	28000000	2800	\N	f	\N
483	1	4	1	2026-05-09	1	6800	2400	680	4	5000	profit	6120	2400	3720	18600000	1860	\N	f	\N
484	1	4	10	2026-05-09	1	4200	1600	0	4	5000	profit	4200	1600	2600	13000000	1300	\N	f	\N
485	1	4	10	2026-05-09	1	4200	1600	0	4	5000	profit	4200	1600	2600	13000000	1300	\N	f	\N
486	1	1	3	2026-05-11	1	3800	1200	0	1	4000	profit	3800	1200	2600	10400000	1040	\N	f	\N
487	1	2	9	2026-05-12	2	1500	400	0	2	5500	profit	3000	800	2200	12100000	1210	\N	f	\N
488	1	2	3	2026-05-12	1	3800	1200	0	2	5500	profit	3800	1200	2600	14300000	1430	\N	f	\N
489	1	2	7	2026-05-12	1	8900	3300	0	2	5500	profit	8900	3300	5600	30800000	3080	\N	f	\N
490	1	2	4	2026-05-12	1	7200	2600	0	2	5500	profit	7200	2600	4600	25300000	2530	\N	f	\N
491	1	2	9	2026-05-12	1	1500	400	0	2	5500	profit	1500	400	1100	6050000	605	\N	f	\N
492	1	2	3	2026-05-12	2	3800	1200	0	2	5500	profit	7600	2400	5200	28600000	2860	\N	f	\N
493	1	3	9	2026-05-13	1	1500	400	0	3	1200	revenue	1500	400	1100	1800000	180	\N	f	\N
494	1	1	6	2026-05-14	2	4500	1500	0	1	4000	profit	9000	3000	6000	24000000	2400	\N	f	\N
495	1	2	3	2026-05-15	1	3800	1200	0	2	5500	profit	3800	1200	2600	14300000	1430	\N	f	\N
496	1	2	3	2026-05-15	1	3800	1200	0	2	5500	profit	3800	1200	2600	14300000	1430	\N	f	\N
497	1	2	3	2026-05-15	1	3800	1200	0	2	5500	profit	3800	1200	2600	14300000	1430	\N	f	\N
498	1	2	11	2026-05-15	1	3500	1300	0	2	5500	profit	3500	1300	2200	12100000	1210	\N	f	\N
499	1	4	3	2026-05-16	1	3800	1200	0	4	5000	profit	3800	1200	2600	13000000	1300	\N	f	\N
500	1	4	3	2026-05-16	1	3800	1200	380	4	5000	profit	3420	1200	2220	11100000	1110	\N	f	\N
501	1	1	3	2026-05-18	1	3800	1200	0	1	4000	profit	3800	1200	2600	10400000	1040	\N	f	\N
502	1	2	1	2026-05-19	1	6800	2400	0	2	5500	profit	6800	2400	4400	24200000	2420	\N	f	\N
503	1	2	2	2026-05-19	1	5400	1900	0	2	5500	profit	5400	1900	3500	19250000	1925	\N	f	\N
504	1	3	7	2026-05-20	1	8900	3300	0	3	1200	revenue	8900	3300	5600	10680000	1068	\N	f	\N
505	1	3	3	2026-05-20	1	3800	1200	0	3	1200	revenue	3800	1200	2600	4560000	456	\N	f	\N
506	1	3	7	2026-05-20	1	8900	3300	0	3	1200	revenue	8900	3300	5600	10680000	1068	\N	f	\N
507	1	3	1	2026-05-20	1	6800	2400	0	3	1200	revenue	6800	2400	4400	8160000	816	\N	f	\N
508	1	3	11	2026-05-20	1	3500	1300	0	3	1200	revenue	3500	1300	2200	4200000	420	\N	f	\N
509	1	3	4	2026-05-20	2	7200	2600	0	3	1200	revenue	14400	5200	9200	17280000	1728	\N	f	\N
510	1	1	2	2026-05-21	-1	5400	1900	0	1	4000	profit	-5400	-1900	-3500	-14000000	-1400	returned	f	\N
511	1	1	12	2026-05-21	1	9500	4200	0	1	4000	profit	9500	4200	5300	21200000	2120	\N	f	\N
512	1	2	1	2026-05-22	2	6800	2400	0	2	5500	profit	13600	4800	8800	48400000	4840	\N	f	\N
513	1	2	2	2026-05-22	1	5400	1900	0	2	5500	profit	5400	1900	3500	19250000	1925	\N	f	\N
514	1	2	6	2026-05-22	1	4500	1500	0	2	5500	profit	4500	1500	3000	16500000	1650	\N	f	\N
515	1	2	1	2026-05-22	-1	6800	2400	0	2	5500	profit	-6800	-2400	-4400	-24200000	-2420	returned	f	\N
516	1	2	11	2026-05-22	2	3500	1300	700	2	5500	profit	6300	2600	3700	20350000	2035	\N	f	\N
517	1	2	4	2026-05-22	1	7200	2600	0	2	5500	profit	7200	2600	4600	25300000	2530	\N	f	\N
518	1	4	9	2026-05-23	1	1500	400	0	4	5000	profit	1500	400	1100	5500000	550	\N	f	\N
519	1	4	1	2026-05-23	1	6800	2400	0	4	5000	profit	6800	2400	4400	22000000	2200	\N	f	\N
520	1	4	3	2026-05-23	1	3800	1200	0	4	5000	profit	3800	1200	2600	13000000	1300	\N	f	\N
521	1	1	9	2026-05-25	1	1500	400	0	1	4000	profit	1500	400	1100	4400000	440	\N	f	\N
522	1	1	11	2026-05-25	1	3500	1300	0	1	4000	profit	3500	1300	2200	8800000	880	\N	f	\N
523	1	1	11	2026-05-25	1	3500	1300	0	1	4000	profit	3500	1300	2200	8800000	880	\N	f	\N
524	1	1	1	2026-05-25	2	6800	2400	0	5	4500	profit	13600	4800	8800	39600000	3960	\N	f	\N
525	1	1	3	2026-05-25	1	3800	1200	0	1	4000	profit	3800	1200	2600	10400000	1040	\N	f	\N
526	1	2	6	2026-05-26	1	4500	1500	0	2	5500	profit	4500	1500	3000	16500000	1650	\N	f	\N
527	1	2	3	2026-05-26	1	3800	1200	0	2	5500	profit	3800	1200	2600	14300000	1430	\N	f	\N
528	1	1	7	2026-05-28	1	8900	3300	0	1	4000	profit	8900	3300	5600	22400000	2240	\N	f	\N
529	1	1	3	2026-05-28	1	3800	1200	0	1	4000	profit	3800	1200	2600	10400000	1040	\N	f	\N
530	1	1	8	2026-05-28	1	3200	1000	640	1	4000	profit	2560	1000	1560	6240000	624	\N	f	\N
531	1	1	9	2026-05-28	1	1500	400	0	1	4000	profit	1500	400	1100	4400000	440	\N	f	\N
532	1	1	3	2026-05-28	2	3800	1200	0	1	4000	profit	7600	2400	5200	20800000	2080	\N	f	\N
533	1	1	3	2026-05-28	1	3800	1200	0	1	4000	profit	3800	1200	2600	10400000	1040	\N	f	\N
534	1	2	2	2026-05-29	1	5400	1900	0	2	5500	profit	5400	1900	3500	19250000	1925	\N	f	\N
535	1	2	7	2026-05-29	1	8900	3300	0	2	5500	profit	8900	3300	5600	30800000	3080	\N	f	\N
536	1	2	5	2026-05-29	2	2600	800	0	2	5500	profit	5200	1600	3600	19800000	1980	\N	f	\N
537	1	4	7	2026-05-30	1	8900	3300	0	4	5000	profit	8900	3300	5600	28000000	2800	\N	f	\N
538	1	4	2	2026-05-30	1	5400	1900	0	4	5000	profit	5400	1900	3500	17500000	1750	\N	f	\N
539	1	1	9	2026-06-01	1	1500	400	0	1	4000	profit	1500	400	1100	4400000	440	\N	f	\N
540	1	1	5	2026-06-01	1	2600	800	0	1	4000	profit	2600	800	1800	7200000	720	\N	f	\N
541	1	1	5	2026-06-01	2	2600	800	0	1	4000	profit	5200	1600	3600	14400000	1440	\N	f	\N
542	1	1	3	2026-06-01	1	3800	1200	0	1	4000	profit	3800	1200	2600	10400000	1040	\N	f	\N
543	1	2	2	2026-06-02	2	5400	1900	0	6	5750	profit	10800	3800	7000	40250000	4025	\N	f	\N
544	1	2	9	2026-06-02	1	1500	400	150	6	5750	profit	1350	400	950	5462500	546	\N	f	\N
545	1	2	11	2026-06-02	1	3500	1300	350	6	5750	profit	3150	1300	1850	10637500	1064	\N	f	\N
546	1	2	4	2026-06-02	2	7200	2600	0	6	5750	profit	14400	5200	9200	52900000	5290	\N	f	\N
547	1	2	5	2026-06-02	1	2600	800	390	6	5750	profit	2210	800	1410	8107500	811	\N	f	\N
548	1	2	1	2026-06-02	1	6800	2400	0	6	5750	profit	6800	2400	4400	25300000	2530	\N	f	\N
549	1	1	7	2026-06-04	2	8900	3300	0	1	4000	profit	17800	6600	11200	44800000	4480	\N	f	\N
550	1	1	9	2026-06-04	1	1500	400	0	1	4000	profit	1500	400	1100	4400000	440	\N	f	\N
551	1	2	3	2026-06-05	1	3800	1200	0	6	5750	profit	3800	1200	2600	14950000	1495	\N	f	\N
552	1	4	8	2026-06-06	1	3200	1000	0	4	5000	profit	3200	1000	2200	11000000	1100	\N	f	\N
553	1	4	8	2026-06-06	1	3200	1000	0	4	5000	profit	3200	1000	2200	11000000	1100	\N	f	\N
554	1	4	3	2026-06-06	2	3800	1200	0	4	5000	profit	7600	2400	5200	26000000	2600	\N	f	\N
555	1	4	1	2026-06-06	1	6800	2400	0	4	5000	profit	6800	2400	4400	22000000	2200	\N	f	\N
556	1	4	5	2026-06-06	1	2600	800	0	4	5000	profit	2600	800	1800	9000000	900	\N	f	\N
557	1	1	1	2026-06-08	1	6800	2400	0	5	4500	profit	6800	2400	4400	19800000	1980	\N	f	\N
558	1	1	1	2026-06-08	2	6800	2400	0	5	4500	profit	13600	4800	8800	39600000	3960	\N	f	\N
559	1	1	3	2026-06-08	1	3800	1200	760	1	4000	profit	3040	1200	1840	7360000	736	\N	f	\N
560	1	2	1	2026-06-09	2	6800	2400	0	6	5750	profit	13600	4800	8800	50600000	5060	\N	f	\N
561	1	2	8	2026-06-09	2	3200	1000	0	6	5750	profit	6400	2000	4400	25300000	2530	\N	f	\N
562	1	3	1	2026-06-10	1	6800	2400	0	3	1200	revenue	6800	2400	4400	8160000	816	\N	f	\N
563	1	3	1	2026-06-10	1	6800	2400	0	3	1200	revenue	6800	2400	4400	8160000	816	\N	f	\N
564	1	3	8	2026-06-10	1	3200	1000	0	3	1200	revenue	3200	1000	2200	3840000	384	\N	f	\N
565	1	1	6	2026-06-11	1	4500	1500	0	1	4000	profit	4500	1500	3000	12000000	1200	\N	f	\N
566	1	1	5	2026-06-11	1	2600	800	0	1	4000	profit	2600	800	1800	7200000	720	\N	f	\N
567	1	1	9	2026-06-11	1	1500	400	0	1	4000	profit	1500	400	1100	4400000	440	\N	f	\N
568	1	2	3	2026-06-12	1	3800	1200	0	6	5750	profit	3800	1200	2600	14950000	1495	\N	f	\N
569	1	2	7	2026-06-12	1	8900	3300	0	6	5750	profit	8900	3300	5600	32200000	3220	\N	f	\N
570	1	2	12	2026-06-12	1	9500	4200	0	6	5750	profit	9500	4200	5300	30475000	3048	\N	f	\N
571	1	2	8	2026-06-12	1	3200	1000	0	6	5750	profit	3200	1000	2200	12650000	1265	\N	f	\N
572	1	2	3	2026-06-12	1	3800	1200	0	6	5750	profit	3800	1200	2600	14950000	1495	\N	f	\N
573	1	2	11	2026-06-12	1	3500	1300	0	6	5750	profit	3500	1300	2200	12650000	1265	\N	f	\N
574	1	4	2	2026-06-13	2	5400	1900	0	4	5000	profit	10800	3800	7000	35000000	3500	\N	f	\N
575	1	4	6	2026-06-13	1	4500	1500	0	4	5000	profit	4500	1500	3000	15000000	1500	\N	f	\N
576	1	1	5	2026-06-15	1	2600	800	0	1	4000	profit	2600	800	1800	7200000	720	\N	f	\N
577	1	1	8	2026-06-15	2	3200	1000	0	1	4000	profit	6400	2000	4400	17600000	1760	\N	f	\N
578	1	1	11	2026-06-15	1	3500	1300	0	1	4000	profit	3500	1300	2200	8800000	880	\N	f	\N
579	1	1	5	2026-06-15	1	2600	800	260	1	4000	profit	2340	800	1540	6160000	616	\N	f	\N
580	1	1	2	2026-06-15	2	5400	1900	0	1	4000	profit	10800	3800	7000	28000000	2800	\N	f	\N
581	1	1	3	2026-06-15	1	3800	1200	0	1	4000	profit	3800	1200	2600	10400000	1040	\N	f	\N
582	1	2	1	2026-06-16	1	6800	2400	0	6	5750	profit	6800	2400	4400	25300000	2530	\N	f	\N
583	1	2	8	2026-06-16	1	3200	1000	0	6	5750	profit	3200	1000	2200	12650000	1265	\N	f	\N
584	1	2	8	2026-06-16	1	3200	1000	0	6	5750	profit	3200	1000	2200	12650000	1265	\N	f	\N
585	1	2	8	2026-06-16	1	3200	1000	0	6	5750	profit	3200	1000	2200	12650000	1265	\N	f	\N
586	1	2	3	2026-06-16	1	3800	1200	0	6	5750	profit	3800	1200	2600	14950000	1495	\N	f	\N
587	1	3	5	2026-06-17	1	2600	800	0	3	1200	revenue	2600	800	1800	3120000	312	\N	f	\N
588	1	3	1	2026-06-17	1	6800	2400	1360	3	1200	revenue	5440	2400	3040	6528000	653	\N	f	\N
589	1	3	1	2026-06-17	1	6800	2400	0	3	1200	revenue	6800	2400	4400	8160000	816	\N	f	\N
590	1	3	7	2026-06-17	1	8900	3300	890	3	1200	revenue	8010	3300	4710	9612000	961	\N	f	\N
591	1	3	1	2026-06-17	1	6800	2400	0	3	1200	revenue	6800	2400	4400	8160000	816	\N	f	\N
592	1	3	1	2026-06-17	1	6800	2400	0	3	1200	revenue	6800	2400	4400	8160000	816	\N	f	\N
593	1	1	4	2026-06-18	2	7200	2600	0	1	4000	profit	14400	5200	9200	36800000	3680	\N	f	\N
594	1	1	7	2026-06-18	1	8900	3300	0	1	4000	profit	8900	3300	5600	22400000	2240	\N	f	\N
595	1	2	2	2026-06-19	1	5400	1900	0	6	5750	profit	5400	1900	3500	20125000	2013	\N	f	\N
596	1	2	3	2026-06-19	1	3800	1200	760	6	5750	profit	3040	1200	1840	10580000	1058	\N	f	\N
597	1	4	9	2026-06-20	1	1500	400	0	4	5000	profit	1500	400	1100	5500000	550	\N	f	\N
598	1	1	1	2026-06-22	1	6800	2400	0	5	4500	profit	6800	2400	4400	19800000	1980	\N	f	\N
599	1	1	4	2026-06-22	2	7200	2600	0	1	4000	profit	14400	5200	9200	36800000	3680	\N	f	\N
600	1	2	12	2026-06-23	1	9500	4200	0	6	5750	profit	9500	4200	5300	30475000	3048	\N	f	\N
601	1	2	1	2026-06-23	1	6800	2400	0	6	5750	profit	6800	2400	4400	25300000	2530	\N	f	\N
602	1	2	5	2026-06-23	2	2600	800	0	6	5750	profit	5200	1600	3600	20700000	2070	\N	f	\N
603	1	2	6	2026-06-23	1	4500	1500	0	6	5750	profit	4500	1500	3000	17250000	1725	\N	f	\N
604	1	2	5	2026-06-23	1	2600	800	0	6	5750	profit	2600	800	1800	10350000	1035	\N	f	\N
605	1	2	3	2026-06-23	1	3800	1200	0	6	5750	profit	3800	1200	2600	14950000	1495	\N	f	\N
606	1	3	11	2026-06-24	1	3500	1300	0	3	1200	revenue	3500	1300	2200	4200000	420	\N	f	\N
607	1	3	3	2026-06-24	1	3800	1200	0	3	1200	revenue	3800	1200	2600	4560000	456	\N	f	\N
608	1	3	9	2026-06-24	1	1500	400	0	3	1200	revenue	1500	400	1100	1800000	180	\N	f	\N
609	1	3	3	2026-06-24	2	3800	1200	0	3	1200	revenue	7600	2400	5200	9120000	912	\N	f	\N
610	1	3	11	2026-06-24	1	3500	1300	0	3	1200	revenue	3500	1300	2200	4200000	420	\N	f	\N
611	1	3	9	2026-06-24	1	1500	400	0	3	1200	revenue	1500	400	1100	1800000	180	\N	f	\N
612	1	2	1	2026-06-26	1	6800	2400	0	6	5750	profit	6800	2400	4400	25300000	2530	\N	f	\N
613	1	2	3	2026-06-26	1	3800	1200	0	6	5750	profit	3800	1200	2600	14950000	1495	\N	f	\N
614	1	2	9	2026-06-26	1	1500	400	0	6	5750	profit	1500	400	1100	6325000	633	\N	f	\N
615	1	2	3	2026-06-26	1	3800	1200	0	6	5750	profit	3800	1200	2600	14950000	1495	\N	f	\N
616	1	2	2	2026-06-26	1	5400	1900	0	6	5750	profit	5400	1900	3500	20125000	2013	\N	f	\N
617	1	2	11	2026-06-26	2	3500	1300	0	6	5750	profit	7000	2600	4400	25300000	2530	\N	f	\N
618	1	4	1	2026-06-27	2	6800	2400	0	4	5000	profit	13600	4800	8800	44000000	4400	\N	f	\N
619	1	4	1	2026-06-27	1	6800	2400	0	4	5000	profit	6800	2400	4400	22000000	2200	\N	f	\N
620	1	4	3	2026-06-27	1	3800	1200	0	4	5000	profit	3800	1200	2600	13000000	1300	\N	f	\N
621	1	4	5	2026-06-27	1	2600	800	0	4	5000	profit	2600	800	1800	9000000	900	\N	f	\N
622	1	4	5	2026-06-27	1	2600	800	0	4	5000	profit	2600	800	1800	9000000	900	\N	f	\N
623	1	1	8	2026-06-29	1	3200	1000	0	1	4000	profit	3200	1000	2200	8800000	880	\N	f	\N
624	1	1	3	2026-06-29	1	3800	1200	380	1	4000	profit	3420	1200	2220	8880000	888	\N	f	\N
625	1	2	2	2026-06-30	1	5400	1900	0	6	5750	profit	5400	1900	3500	20125000	2013	\N	f	\N
626	1	2	1	2026-06-30	1	6800	2400	0	6	5750	profit	6800	2400	4400	25300000	2530	\N	f	\N
627	1	2	2	2026-06-30	1	5400	1900	0	6	5750	profit	5400	1900	3500	20125000	2013	\N	f	\N
628	1	3	1	2026-07-01	2	6800	2400	0	3	1200	revenue	13600	4800	8800	16320000	1632	\N	f	\N
629	1	3	9	2026-07-01	1	1500	400	0	3	1200	revenue	1500	400	1100	1800000	180	\N	f	\N
630	1	3	5	2026-07-01	1	2600	800	260	3	1200	revenue	2340	800	1540	2808000	281	\N	f	\N
631	1	3	2	2026-07-01	1	5400	1900	0	3	1200	revenue	5400	1900	3500	6480000	648	\N	f	\N
632	1	3	1	2026-07-01	1	6800	2400	0	3	1200	revenue	6800	2400	4400	8160000	816	\N	f	\N
633	1	1	5	2026-07-02	2	2600	800	0	1	4000	profit	5200	1600	3600	14400000	1440	\N	f	\N
634	1	1	2	2026-07-02	1	5400	1900	0	1	4000	profit	5400	1900	3500	14000000	1400	\N	f	\N
635	1	1	9	2026-07-02	2	1500	400	0	1	4000	profit	3000	800	2200	8800000	880	\N	f	\N
636	1	1	9	2026-07-02	2	1500	400	0	1	4000	profit	3000	800	2200	8800000	880	\N	f	\N
637	1	2	1	2026-07-03	1	6800	2400	0	6	5750	profit	6800	2400	4400	25300000	2530	\N	f	\N
638	1	2	5	2026-07-03	1	2600	800	0	6	5750	profit	2600	800	1800	10350000	1035	\N	f	\N
639	1	4	5	2026-07-04	1	2600	800	0	4	5000	profit	2600	800	1800	9000000	900	\N	f	\N
640	1	4	2	2026-07-04	1	5400	1900	0	4	5000	profit	5400	1900	3500	17500000	1750	\N	f	\N
641	1	1	8	2026-07-06	2	3200	1000	0	1	4000	profit	6400	2000	4400	17600000	1760	\N	f	\N
642	1	1	2	2026-07-06	1	5400	1900	0	1	4000	profit	5400	1900	3500	14000000	1400	\N	f	\N
643	1	1	10	2026-07-06	1	4200	1600	0	1	4000	profit	4200	1600	2600	10400000	1040	\N	f	\N
644	1	1	9	2026-07-06	2	1500	400	0	1	4000	profit	3000	800	2200	8800000	880	\N	f	\N
645	1	2	3	2026-07-07	1	3800	1200	0	6	5750	profit	3800	1200	2600	14950000	1495	\N	f	\N
646	1	2	1	2026-07-07	1	6800	2400	0	6	5750	profit	6800	2400	4400	25300000	2530	\N	f	\N
647	1	2	6	2026-07-07	1	4500	1500	0	6	5750	profit	4500	1500	3000	17250000	1725	\N	f	\N
648	1	3	3	2026-07-08	1	3800	1200	0	3	1200	revenue	3800	1200	2600	4560000	456	\N	f	\N
649	1	1	1	2026-07-09	1	6800	2400	0	5	4500	profit	6800	2400	4400	19800000	1980	\N	f	\N
650	1	1	5	2026-07-09	1	2600	800	0	1	4000	profit	2600	800	1800	7200000	720	\N	f	\N
651	1	2	9	2026-07-10	1	1500	400	0	6	5750	profit	1500	400	1100	6325000	633	\N	f	\N
652	1	2	7	2026-07-10	2	8900	3300	0	6	5750	profit	17800	6600	11200	64400000	6440	\N	f	\N
653	1	2	5	2026-07-10	1	2600	800	0	6	5750	profit	2600	800	1800	10350000	1035	\N	f	\N
654	1	2	5	2026-07-10	2	2600	800	0	6	5750	profit	5200	1600	3600	20700000	2070	\N	f	\N
655	1	2	1	2026-07-10	1	6800	2400	0	6	5750	profit	6800	2400	4400	25300000	2530	\N	f	\N
656	1	4	8	2026-07-11	1	3200	1000	0	4	5000	profit	3200	1000	2200	11000000	1100	\N	f	\N
657	1	4	9	2026-07-11	1	1500	400	0	4	5000	profit	1500	400	1100	5500000	550	\N	f	\N
658	1	4	10	2026-07-11	-1	4200	1600	0	4	5000	profit	-4200	-1600	-2600	-13000000	-1300	returned	f	\N
659	1	4	1	2026-07-11	1	6800	2400	0	4	5000	profit	6800	2400	4400	22000000	2200	\N	f	\N
660	1	4	5	2026-07-11	1	2600	800	520	4	5000	profit	2080	800	1280	6400000	640	\N	f	\N
661	1	4	5	2026-07-11	2	2600	800	0	4	5000	profit	5200	1600	3600	18000000	1800	\N	f	\N
662	1	1	10	2026-07-13	2	4200	1600	1680	1	4000	profit	6720	3200	3520	14080000	1408	\N	f	\N
663	1	1	12	2026-07-13	2	9500	4200	0	1	4000	profit	19000	8400	10600	42400000	4240	\N	f	\N
664	1	1	5	2026-07-13	2	2600	800	0	1	4000	profit	5200	1600	3600	14400000	1440	\N	f	\N
665	1	2	9	2026-07-14	1	1500	400	0	6	5750	profit	1500	400	1100	6325000	633	\N	f	\N
666	1	3	11	2026-07-15	2	3500	1300	0	3	1200	revenue	7000	2600	4400	8400000	840	\N	f	\N
667	1	3	4	2026-07-15	1	7200	2600	0	3	1200	revenue	7200	2600	4600	8640000	864	\N	f	\N
668	1	3	3	2026-07-15	1	3800	1200	0	3	1200	revenue	3800	1200	2600	4560000	456	\N	f	\N
669	1	3	3	2026-07-15	1	3800	1200	0	3	1200	revenue	3800	1200	2600	4560000	456	\N	f	\N
670	1	3	6	2026-07-15	1	4500	1500	0	3	1200	revenue	4500	1500	3000	5400000	540	\N	f	\N
671	1	3	5	2026-07-15	1	2600	800	0	3	1200	revenue	2600	800	1800	3120000	312	\N	f	\N
672	1	1	1	2026-07-16	1	6800	2400	0	5	4500	profit	6800	2400	4400	19800000	1980	\N	f	\N
673	1	1	6	2026-07-16	1	4500	1500	0	1	4000	profit	4500	1500	3000	12000000	1200	\N	f	\N
674	1	1	5	2026-07-16	1	2600	800	520	1	4000	profit	2080	800	1280	5120000	512	\N	f	\N
675	1	1	3	2026-07-16	1	3800	1200	760	1	4000	profit	3040	1200	1840	7360000	736	\N	f	\N
676	1	2	1	2026-07-17	1	6800	2400	0	6	5750	profit	6800	2400	4400	25300000	2530	\N	f	\N
677	1	2	10	2026-07-17	2	4200	1600	0	6	5750	profit	8400	3200	5200	29900000	2990	\N	f	\N
678	1	2	9	2026-07-17	1	1500	400	0	6	5750	profit	1500	400	1100	6325000	633	\N	f	\N
679	1	2	2	2026-07-17	1	5400	1900	0	6	5750	profit	5400	1900	3500	20125000	2013	\N	f	\N
680	1	4	5	2026-07-18	1	2600	800	0	4	5000	profit	2600	800	1800	9000000	900	\N	f	\N
681	1	4	8	2026-07-18	1	3200	1000	0	4	5000	profit	3200	1000	2200	11000000	1100	\N	f	\N
682	1	4	9	2026-07-18	1	1500	400	0	4	5000	profit	1500	400	1100	5500000	550	\N	f	\N
683	1	4	8	2026-07-18	2	3200	1000	0	4	5000	profit	6400	2000	4400	22000000	2200	\N	f	\N
684	1	4	2	2026-07-18	1	5400	1900	0	4	5000	profit	5400	1900	3500	17500000	1750	\N	f	\N
685	1	1	5	2026-07-20	2	2600	800	0	1	4000	profit	5200	1600	3600	14400000	1440	\N	f	\N
686	1	1	6	2026-07-20	1	4500	1500	0	1	4000	profit	4500	1500	3000	12000000	1200	\N	f	\N
687	1	1	11	2026-07-20	1	3500	1300	0	1	4000	profit	3500	1300	2200	8800000	880	\N	f	\N
688	1	1	8	2026-07-20	2	3200	1000	0	1	4000	profit	6400	2000	4400	17600000	1760	\N	f	\N
689	1	2	9	2026-07-21	1	1500	400	0	6	5750	profit	1500	400	1100	6325000	633	\N	f	\N
690	1	3	1	2026-07-22	2	6800	2400	0	3	1200	revenue	13600	4800	8800	16320000	1632	\N	f	\N
691	1	1	12	2026-07-23	2	9500	4200	0	1	4000	profit	19000	8400	10600	42400000	4240	\N	f	\N
692	1	2	4	2026-07-24	1	7200	2600	0	6	5750	profit	7200	2600	4600	26450000	2645	\N	f	\N
693	1	2	1	2026-07-24	1	6800	2400	0	6	5750	profit	6800	2400	4400	25300000	2530	\N	f	\N
694	1	2	7	2026-07-24	1	8900	3300	0	6	5750	profit	8900	3300	5600	32200000	3220	\N	f	\N
695	1	2	3	2026-07-24	1	3800	1200	0	6	5750	profit	3800	1200	2600	14950000	1495	\N	f	\N
696	1	4	1	2026-07-25	1	6800	2400	0	4	5000	profit	6800	2400	4400	22000000	2200	\N	f	\N
697	1	1	4	2026-07-27	2	7200	2600	0	1	4000	profit	14400	5200	9200	36800000	3680	\N	f	\N
698	1	1	7	2026-07-27	1	8900	3300	0	1	4000	profit	8900	3300	5600	22400000	2240	\N	f	\N
699	1	1	6	2026-07-27	2	4500	1500	0	1	4000	profit	9000	3000	6000	24000000	2400	\N	f	\N
700	1	1	10	2026-07-27	1	4200	1600	0	1	4000	profit	4200	1600	2600	10400000	1040	\N	f	\N
701	1	1	3	2026-07-27	1	3800	1200	0	1	4000	profit	3800	1200	2600	10400000	1040	\N	f	\N
702	1	2	9	2026-07-28	1	1500	400	300	6	5750	profit	1200	400	800	4600000	460	\N	f	\N
703	1	2	3	2026-07-28	1	3800	1200	0	6	5750	profit	3800	1200	2600	14950000	1495	\N	f	\N
704	1	2	6	2026-07-28	1	4500	1500	900	6	5750	profit	3600	1500	2100	12075000	1208	\N	f	\N
705	1	2	7	2026-07-28	1	8900	3300	0	6	5750	profit	8900	3300	5600	32200000	3220	\N	f	\N
706	1	2	1	2026-07-28	1	6800	2400	1360	6	5750	profit	5440	2400	3040	17480000	1748	\N	f	\N
707	1	3	4	2026-07-29	2	7200	2600	0	3	1200	revenue	14400	5200	9200	17280000	1728	\N	f	\N
708	1	3	3	2026-07-29	1	3800	1200	0	3	1200	revenue	3800	1200	2600	4560000	456	\N	f	\N
709	1	3	4	2026-07-29	1	7200	2600	1440	3	1200	revenue	5760	2600	3160	6912000	691	\N	f	\N
710	1	1	1	2026-07-30	1	6800	2400	1360	5	4500	profit	5440	2400	3040	13680000	1368	\N	f	\N
711	1	1	10	2026-07-30	1	4200	1600	0	1	4000	profit	4200	1600	2600	10400000	1040	\N	f	\N
712	1	1	3	2026-07-30	1	3800	1200	0	1	4000	profit	3800	1200	2600	10400000	1040	\N	f	\N
713	1	1	3	2026-07-30	1	3800	1200	0	1	4000	profit	3800	1200	2600	10400000	1040	\N	f	\N
714	1	2	3	2026-07-31	1	3800	1200	0	6	5750	profit	3800	1200	2600	14950000	1495	\N	f	\N
715	1	4	7	2026-08-01	2	8900	3300	2670	4	5000	profit	15130	6600	8530	42650000	4265	\N	f	\N
716	1	4	4	2026-08-01	1	7200	2600	0	4	5000	profit	7200	2600	4600	23000000	2300	\N	f	\N
717	1	4	5	2026-08-01	2	2600	800	0	4	5000	profit	5200	1600	3600	18000000	1800	\N	f	\N
718	1	1	9	2026-08-03	1	1500	400	0	1	4000	profit	1500	400	1100	4400000	440	\N	f	\N
719	1	1	3	2026-08-03	2	3800	1200	0	1	4000	profit	7600	2400	5200	20800000	2080	\N	f	\N
720	1	1	6	2026-08-03	1	4500	1500	0	1	4000	profit	4500	1500	3000	12000000	1200	\N	f	\N
721	1	1	10	2026-08-03	1	4200	1600	0	1	4000	profit	4200	1600	2600	10400000	1040	\N	f	\N
722	1	2	3	2026-08-04	1	3800	1200	0	6	5750	profit	3800	1200	2600	14950000	1495	\N	f	\N
723	1	2	3	2026-08-04	1	3800	1200	0	6	5750	profit	3800	1200	2600	14950000	1495	\N	f	\N
724	1	2	5	2026-08-04	1	2600	800	0	6	5750	profit	2600	800	1800	10350000	1035	\N	f	\N
725	1	2	5	2026-08-04	1	2600	800	0	6	5750	profit	2600	800	1800	10350000	1035	\N	f	\N
726	1	2	11	2026-08-04	1	3500	1300	525	6	5750	profit	2975	1300	1675	9631250	963	\N	f	\N
727	1	3	5	2026-08-05	1	2600	800	0	3	1200	revenue	2600	800	1800	3120000	312	\N	f	\N
728	1	3	1	2026-08-05	1	6800	2400	0	3	1200	revenue	6800	2400	4400	8160000	816	\N	f	\N
729	1	1	9	2026-08-06	2	1500	400	0	1	4000	profit	3000	800	2200	8800000	880	\N	f	\N
730	1	1	3	2026-08-06	1	3800	1200	0	1	4000	profit	3800	1200	2600	10400000	1040	\N	f	\N
731	1	1	1	2026-08-06	1	6800	2400	0	\N	\N	\N	6800	2400	4400	0	0	sample	f	\N
732	1	1	1	2026-08-06	1	6800	2400	0	5	4500	profit	6800	2400	4400	19800000	1980	\N	f	\N
733	1	1	2	2026-08-06	1	5400	1900	0	1	4000	profit	5400	1900	3500	14000000	1400	\N	f	\N
734	1	1	5	2026-08-06	1	2600	800	0	1	4000	profit	2600	800	1800	7200000	720	\N	f	\N
735	1	2	8	2026-08-07	1	3200	1000	0	6	5750	profit	3200	1000	2200	12650000	1265	\N	f	\N
736	1	2	11	2026-08-07	1	3500	1300	0	6	5750	profit	3500	1300	2200	12650000	1265	\N	f	\N
737	1	2	12	2026-08-07	1	9500	4200	0	6	5750	profit	9500	4200	5300	30475000	3048	\N	f	\N
738	1	2	8	2026-08-07	1	3200	1000	640	6	5750	profit	2560	1000	1560	8970000	897	\N	f	\N
739	1	2	3	2026-08-07	2	3800	1200	0	6	5750	profit	7600	2400	5200	29900000	2990	\N	f	\N
740	1	4	2	2026-08-08	1	5400	1900	0	4	5000	profit	5400	1900	3500	17500000	1750	\N	f	\N
741	1	4	5	2026-08-08	1	2600	800	0	4	5000	profit	2600	800	1800	9000000	900	\N	f	\N
742	1	4	6	2026-08-08	1	4500	1500	0	4	5000	profit	4500	1500	3000	15000000	1500	\N	f	\N
743	1	4	2	2026-08-08	1	5400	1900	0	4	5000	profit	5400	1900	3500	17500000	1750	\N	f	\N
744	1	1	5	2026-08-10	1	2600	800	0	1	4000	profit	2600	800	1800	7200000	720	\N	f	\N
745	1	1	1	2026-08-10	1	6800	2400	0	5	4500	profit	6800	2400	4400	19800000	1980	\N	f	\N
746	1	1	8	2026-08-10	1	3200	1000	640	1	4000	profit	2560	1000	1560	6240000	624	\N	f	\N
747	1	1	6	2026-08-10	1	4500	1500	0	1	4000	profit	4500	1500	3000	12000000	1200	\N	f	\N
748	1	1	7	2026-08-10	1	8900	3300	0	1	4000	profit	8900	3300	5600	22400000	2240	\N	f	\N
749	1	2	6	2026-08-11	1	4500	1500	0	6	5750	profit	4500	1500	3000	17250000	1725	\N	f	\N
750	1	2	1	2026-08-11	1	6800	2400	0	6	5750	profit	6800	2400	4400	25300000	2530	\N	f	\N
751	1	2	11	2026-08-11	1	3500	1300	0	6	5750	profit	3500	1300	2200	12650000	1265	\N	f	\N
752	1	3	1	2026-08-12	1	6800	2400	0	3	1200	revenue	6800	2400	4400	8160000	816	\N	f	\N
753	1	3	2	2026-08-12	2	5400	1900	0	3	1200	revenue	10800	3800	7000	12960000	1296	\N	f	\N
754	1	3	3	2026-08-12	1	3800	1200	0	3	1200	revenue	3800	1200	2600	4560000	456	\N	f	\N
755	1	3	5	2026-08-12	1	2600	800	0	3	1200	revenue	2600	800	1800	3120000	312	\N	f	\N
756	1	3	10	2026-08-12	1	4200	1600	0	3	1200	revenue	4200	1600	2600	5040000	504	\N	f	\N
757	1	3	3	2026-08-12	1	3800	1200	0	3	1200	revenue	3800	1200	2600	4560000	456	\N	f	\N
758	1	1	11	2026-08-13	1	3500	1300	0	1	4000	profit	3500	1300	2200	8800000	880	\N	f	\N
759	1	1	4	2026-08-13	1	7200	2600	0	1	4000	profit	7200	2600	4600	18400000	1840	\N	f	\N
760	1	1	1	2026-08-13	1	6800	2400	0	5	4500	profit	6800	2400	4400	19800000	1980	\N	f	\N
761	1	1	11	2026-08-13	2	3500	1300	0	1	4000	profit	7000	2600	4400	17600000	1760	\N	f	\N
762	1	2	8	2026-08-14	1	3200	1000	0	6	5750	profit	3200	1000	2200	12650000	1265	\N	f	\N
763	1	4	6	2026-08-15	1	4500	1500	0	4	5000	profit	4500	1500	3000	15000000	1500	\N	f	\N
764	1	4	8	2026-08-15	1	3200	1000	0	4	5000	profit	3200	1000	2200	11000000	1100	\N	f	\N
765	1	4	6	2026-08-15	1	4500	1500	0	4	5000	profit	4500	1500	3000	15000000	1500	\N	f	\N
766	1	4	10	2026-08-15	1	4200	1600	0	4	5000	profit	4200	1600	2600	13000000	1300	\N	f	\N
767	1	4	6	2026-08-15	1	4500	1500	0	4	5000	profit	4500	1500	3000	15000000	1500	\N	f	\N
768	1	1	7	2026-08-17	1	8900	3300	0	1	4000	profit	8900	3300	5600	22400000	2240	\N	f	\N
769	1	1	3	2026-08-17	1	3800	1200	0	1	4000	profit	3800	1200	2600	10400000	1040	\N	f	\N
770	1	1	5	2026-08-17	2	2600	800	0	1	4000	profit	5200	1600	3600	14400000	1440	\N	f	\N
771	1	2	7	2026-08-18	1	8900	3300	0	6	5750	profit	8900	3300	5600	32200000	3220	\N	f	\N
772	1	2	1	2026-08-18	1	6800	2400	0	6	5750	profit	6800	2400	4400	25300000	2530	\N	f	\N
773	1	2	3	2026-08-18	1	3800	1200	0	6	5750	profit	3800	1200	2600	14950000	1495	\N	f	\N
774	1	2	7	2026-08-18	1	8900	3300	1335	6	5750	profit	7565	3300	4265	24523750	2452	\N	f	\N
775	1	2	7	2026-08-18	-1	8900	3300	0	6	5750	profit	-8900	-3300	-5600	-32200000	-3220	returned	f	\N
776	1	3	9	2026-08-19	2	1500	400	0	3	1200	revenue	3000	800	2200	3600000	360	\N	f	\N
777	1	3	3	2026-08-19	2	3800	1200	0	3	1200	revenue	7600	2400	5200	9120000	912	\N	f	\N
778	1	2	12	2026-08-21	1	9500	4200	0	6	5750	profit	9500	4200	5300	30475000	3048	\N	f	\N
779	1	2	2	2026-08-21	1	5400	1900	0	6	5750	profit	5400	1900	3500	20125000	2013	\N	f	\N
780	1	2	5	2026-08-21	1	2600	800	0	6	5750	profit	2600	800	1800	10350000	1035	\N	f	\N
781	1	4	5	2026-08-22	1	2600	800	0	4	5000	profit	2600	800	1800	9000000	900	\N	f	\N
782	1	1	1	2026-08-24	2	6800	2400	2040	5	4500	profit	11560	4800	6760	30420000	3042	\N	f	\N
783	1	1	9	2026-08-24	1	1500	400	0	1	4000	profit	1500	400	1100	4400000	440	\N	f	\N
784	1	1	12	2026-08-24	1	9500	4200	0	1	4000	profit	9500	4200	5300	21200000	2120	\N	f	\N
785	1	1	6	2026-08-24	1	4500	1500	675	1	4000	profit	3825	1500	2325	9300000	930	\N	f	\N
786	1	1	7	2026-08-24	1	8900	3300	0	1	4000	profit	8900	3300	5600	22400000	2240	\N	f	\N
787	1	1	12	2026-08-24	1	9500	4200	1900	1	4000	profit	7600	4200	3400	13600000	1360	\N	f	\N
788	1	2	7	2026-08-25	1	8900	3300	0	6	5750	profit	8900	3300	5600	32200000	3220	\N	f	\N
789	1	2	2	2026-08-25	2	5400	1900	0	6	5750	profit	10800	3800	7000	40250000	4025	\N	f	\N
790	1	2	8	2026-08-25	1	3200	1000	0	6	5750	profit	3200	1000	2200	12650000	1265	\N	f	\N
791	1	2	5	2026-08-25	2	2600	800	0	6	5750	profit	5200	1600	3600	20700000	2070	\N	f	\N
792	1	2	5	2026-08-25	1	2600	800	0	6	5750	profit	2600	800	1800	10350000	1035	\N	f	\N
793	1	2	3	2026-08-25	1	3800	1200	0	6	5750	profit	3800	1200	2600	14950000	1495	\N	f	\N
794	1	3	4	2026-08-26	1	7200	2600	0	3	1200	revenue	7200	2600	4600	8640000	864	\N	f	\N
795	1	3	5	2026-08-26	1	2600	800	0	3	1200	revenue	2600	800	1800	3120000	312	\N	f	\N
796	1	1	1	2026-08-27	1	6800	2400	0	5	4500	profit	6800	2400	4400	19800000	1980	\N	f	\N
797	1	1	3	2026-08-27	1	3800	1200	0	1	4000	profit	3800	1200	2600	10400000	1040	\N	f	\N
798	1	1	9	2026-08-27	1	1500	400	0	1	4000	profit	1500	400	1100	4400000	440	\N	f	\N
799	1	1	9	2026-08-27	-1	1500	400	0	1	4000	profit	-1500	-400	-1100	-4400000	-440	returned	f	\N
800	1	1	5	2026-08-27	1	2600	800	0	1	4000	profit	2600	800	1800	7200000	720	\N	f	\N
801	1	1	4	2026-08-27	1	7200	2600	0	1	4000	profit	7200	2600	4600	18400000	1840	\N	f	\N
802	1	2	11	2026-08-28	1	3500	1300	0	6	5750	profit	3500	1300	2200	12650000	1265	\N	f	\N
803	1	4	3	2026-08-29	-1	3800	1200	0	4	5000	profit	-3800	-1200	-2600	-13000000	-1300	returned	f	\N
804	1	4	8	2026-08-29	1	3200	1000	0	4	5000	profit	3200	1000	2200	11000000	1100	\N	f	\N
805	1	4	3	2026-08-29	1	3800	1200	0	4	5000	profit	3800	1200	2600	13000000	1300	\N	f	\N
806	1	4	12	2026-08-29	1	9500	4200	0	4	5000	profit	9500	4200	5300	26500000	2650	\N	f	\N
807	1	4	8	2026-08-29	1	3200	1000	0	4	5000	profit	3200	1000	2200	11000000	1100	\N	f	\N
808	1	1	7	2026-08-31	1	8900	3300	0	1	4000	profit	8900	3300	5600	22400000	2240	\N	f	\N
809	1	3	5	2026-09-02	1	2600	800	0	3	1200	revenue	2600	800	1800	3120000	312	\N	f	\N
810	1	3	5	2026-09-02	2	2600	800	0	3	1200	revenue	5200	1600	3600	6240000	624	\N	f	\N
811	1	3	2	2026-09-02	2	5400	1900	0	3	1200	revenue	10800	3800	7000	12960000	1296	\N	f	\N
812	1	1	7	2026-09-03	1	8900	3300	0	1	4000	profit	8900	3300	5600	22400000	2240	\N	f	\N
813	1	1	2	2026-09-03	1	5400	1900	0	1	4000	profit	5400	1900	3500	14000000	1400	\N	f	\N
814	1	1	1	2026-09-03	1	6800	2400	0	5	4500	profit	6800	2400	4400	19800000	1980	\N	f	\N
815	1	2	9	2026-09-04	1	1500	400	0	6	5750	profit	1500	400	1100	6325000	633	\N	f	\N
816	1	4	6	2026-09-05	1	4500	1500	675	4	5000	profit	3825	1500	2325	11625000	1163	\N	f	\N
817	1	4	9	2026-09-05	1	1500	400	0	4	5000	profit	1500	400	1100	5500000	550	\N	f	\N
818	1	4	1	2026-09-05	1	6800	2400	1360	4	5000	profit	5440	2400	3040	15200000	1520	\N	f	\N
819	1	4	9	2026-09-05	1	1500	400	0	4	5000	profit	1500	400	1100	5500000	550	\N	f	\N
820	1	4	8	2026-09-05	1	3200	1000	0	4	5000	profit	3200	1000	2200	11000000	1100	\N	f	\N
821	1	1	3	2026-09-07	1	3800	1200	0	1	4000	profit	3800	1200	2600	10400000	1040	\N	f	\N
822	1	1	1	2026-09-07	2	6800	2400	0	5	4500	profit	13600	4800	8800	39600000	3960	\N	f	\N
823	1	1	8	2026-09-07	1	3200	1000	0	1	4000	profit	3200	1000	2200	8800000	880	\N	f	\N
824	1	1	5	2026-09-07	1	2600	800	0	1	4000	profit	2600	800	1800	7200000	720	\N	f	\N
825	1	2	1	2026-09-08	2	6800	2400	0	6	5750	profit	13600	4800	8800	50600000	5060	\N	f	\N
826	1	2	2	2026-09-08	2	5400	1900	0	6	5750	profit	10800	3800	7000	40250000	4025	\N	f	\N
827	1	3	3	2026-09-09	1	3800	1200	0	3	1200	revenue	3800	1200	2600	4560000	456	\N	f	\N
828	1	3	9	2026-09-09	1	1500	400	0	3	1200	revenue	1500	400	1100	1800000	180	\N	f	\N
829	1	3	9	2026-09-09	1	1500	400	150	3	1200	revenue	1350	400	950	1620000	162	\N	f	\N
830	1	3	9	2026-09-09	2	1500	400	0	3	1200	revenue	3000	800	2200	3600000	360	\N	f	\N
831	1	1	6	2026-09-10	2	4500	1500	0	1	4000	profit	9000	3000	6000	24000000	2400	\N	f	\N
832	1	1	9	2026-09-10	1	1500	400	0	1	4000	profit	1500	400	1100	4400000	440	\N	f	\N
833	1	1	4	2026-09-10	1	7200	2600	1080	1	4000	profit	6120	2600	3520	14080000	1408	\N	f	\N
834	1	1	3	2026-09-10	1	3800	1200	0	1	4000	profit	3800	1200	2600	10400000	1040	\N	f	\N
835	1	1	1	2026-09-10	1	6800	2400	0	5	4500	profit	6800	2400	4400	19800000	1980	\N	f	\N
836	1	2	8	2026-09-11	2	3200	1000	0	6	5750	profit	6400	2000	4400	25300000	2530	\N	f	\N
837	1	2	12	2026-09-11	1	9500	4200	0	6	5750	profit	9500	4200	5300	30475000	3048	\N	f	\N
838	1	2	5	2026-09-11	1	2600	800	0	6	5750	profit	2600	800	1800	10350000	1035	\N	f	\N
839	1	2	2	2026-09-11	1	5400	1900	0	6	5750	profit	5400	1900	3500	20125000	2013	\N	f	\N
840	1	2	4	2026-09-11	1	7200	2600	0	6	5750	profit	7200	2600	4600	26450000	2645	\N	f	\N
841	1	4	5	2026-09-12	1	2600	800	0	4	5000	profit	2600	800	1800	9000000	900	\N	f	\N
842	1	2	11	2026-09-15	2	3500	1300	0	6	5750	profit	7000	2600	4400	25300000	2530	\N	f	\N
843	1	3	6	2026-09-16	1	4500	1500	675	3	1200	revenue	3825	1500	2325	4590000	459	\N	f	\N
844	1	3	9	2026-09-16	1	1500	400	0	3	1200	revenue	1500	400	1100	1800000	180	\N	f	\N
845	1	3	3	2026-09-16	1	3800	1200	0	3	1200	revenue	3800	1200	2600	4560000	456	\N	f	\N
846	1	3	10	2026-09-16	1	4200	1600	0	3	1200	revenue	4200	1600	2600	5040000	504	\N	f	\N
847	1	3	5	2026-09-16	1	2600	800	0	3	1200	revenue	2600	800	1800	3120000	312	\N	f	\N
848	1	3	10	2026-09-16	1	4200	1600	0	3	1200	revenue	4200	1600	2600	5040000	504	\N	f	\N
849	1	1	2	2026-09-17	1	5400	1900	0	1	4000	profit	5400	1900	3500	14000000	1400	\N	f	\N
850	1	1	10	2026-09-17	1	4200	1600	0	1	4000	profit	4200	1600	2600	10400000	1040	\N	f	\N
851	1	1	12	2026-09-17	1	9500	4200	0	1	4000	profit	9500	4200	5300	21200000	2120	\N	f	\N
852	1	2	2	2026-09-18	1	5400	1900	0	6	5750	profit	5400	1900	3500	20125000	2013	\N	f	\N
853	1	2	2	2026-09-18	1	5400	1900	0	6	5750	profit	5400	1900	3500	20125000	2013	\N	f	\N
854	1	2	9	2026-09-18	1	1500	400	0	6	5750	profit	1500	400	1100	6325000	633	\N	f	\N
855	1	2	11	2026-09-18	1	3500	1300	0	6	5750	profit	3500	1300	2200	12650000	1265	\N	f	\N
856	1	4	11	2026-09-19	1	3500	1300	0	4	5000	profit	3500	1300	2200	11000000	1100	\N	f	\N
857	1	4	1	2026-09-19	1	6800	2400	0	4	5000	profit	6800	2400	4400	22000000	2200	\N	f	\N
858	1	4	4	2026-09-19	1	7200	2600	0	4	5000	profit	7200	2600	4600	23000000	2300	\N	f	\N
859	1	4	6	2026-09-19	1	4500	1500	0	4	5000	profit	4500	1500	3000	15000000	1500	\N	f	\N
860	1	1	5	2026-09-21	2	2600	800	0	1	4000	profit	5200	1600	3600	14400000	1440	\N	f	\N
861	1	1	1	2026-09-21	1	6800	2400	0	5	4500	profit	6800	2400	4400	19800000	1980	\N	f	\N
862	1	1	3	2026-09-21	1	3800	1200	0	1	4000	profit	3800	1200	2600	10400000	1040	\N	f	\N
863	1	1	6	2026-09-21	1	4500	1500	0	1	4000	profit	4500	1500	3000	12000000	1200	\N	f	\N
864	1	2	11	2026-09-22	1	3500	1300	0	6	5750	profit	3500	1300	2200	12650000	1265	\N	f	\N
865	1	2	9	2026-09-22	1	1500	400	0	6	5750	profit	1500	400	1100	6325000	633	\N	f	\N
866	1	2	2	2026-09-22	1	5400	1900	1080	6	5750	profit	4320	1900	2420	13915000	1392	\N	f	\N
867	1	2	3	2026-09-22	-1	3800	1200	0	6	5750	profit	-3800	-1200	-2600	-14950000	-1495	returned	f	\N
868	1	3	5	2026-09-23	1	2600	800	0	3	1200	revenue	2600	800	1800	3120000	312	\N	f	\N
869	1	3	9	2026-09-23	1	1500	400	0	3	1200	revenue	1500	400	1100	1800000	180	\N	f	\N
870	1	3	3	2026-09-23	2	3800	1200	0	3	1200	revenue	7600	2400	5200	9120000	912	\N	f	\N
871	1	3	4	2026-09-23	2	7200	2600	0	3	1200	revenue	14400	5200	9200	17280000	1728	\N	f	\N
872	1	3	2	2026-09-23	1	5400	1900	0	3	1200	revenue	5400	1900	3500	6480000	648	\N	f	\N
873	1	3	9	2026-09-23	1	1500	400	0	3	1200	revenue	1500	400	1100	1800000	180	\N	f	\N
874	1	1	3	2026-09-24	1	3800	1200	0	1	4000	profit	3800	1200	2600	10400000	1040	\N	f	\N
875	1	1	2	2026-09-24	1	5400	1900	0	1	4000	profit	5400	1900	3500	14000000	1400	\N	f	\N
876	1	1	12	2026-09-24	1	9500	4200	0	1	4000	profit	9500	4200	5300	21200000	2120	\N	f	\N
877	1	1	6	2026-09-24	1	4500	1500	675	1	4000	profit	3825	1500	2325	9300000	930	\N	f	\N
878	1	1	2	2026-09-24	1	5400	1900	0	1	4000	profit	5400	1900	3500	14000000	1400	\N	f	\N
879	1	2	5	2026-09-25	1	2600	800	0	6	5750	profit	2600	800	1800	10350000	1035	\N	f	\N
880	1	2	12	2026-09-25	1	9500	4200	0	6	5750	profit	9500	4200	5300	30475000	3048	\N	f	\N
881	1	2	4	2026-09-25	1	7200	2600	0	6	5750	profit	7200	2600	4600	26450000	2645	\N	f	\N
882	1	2	3	2026-09-25	1	3800	1200	0	6	5750	profit	3800	1200	2600	14950000	1495	\N	f	\N
883	1	4	1	2026-09-26	2	6800	2400	0	4	5000	profit	13600	4800	8800	44000000	4400	\N	f	\N
884	1	4	3	2026-09-26	1	3800	1200	0	4	5000	profit	3800	1200	2600	13000000	1300	\N	f	\N
885	1	1	8	2026-09-28	1	3200	1000	0	1	4000	profit	3200	1000	2200	8800000	880	\N	f	\N
886	1	1	2	2026-09-28	2	5400	1900	0	1	4000	profit	10800	3800	7000	28000000	2800	\N	f	\N
887	1	1	2	2026-09-28	1	5400	1900	0	1	4000	profit	5400	1900	3500	14000000	1400	\N	f	\N
888	1	2	2	2026-09-29	1	5400	1900	0	6	5750	profit	5400	1900	3500	20125000	2013	\N	f	\N
889	1	3	8	2026-09-30	2	3200	1000	0	3	1200	revenue	6400	2000	4400	7680000	768	\N	f	\N
890	1	3	8	2026-09-30	1	3200	1000	0	3	1200	revenue	3200	1000	2200	3840000	384	\N	f	\N
891	1	3	7	2026-09-30	2	8900	3300	0	3	1200	revenue	17800	6600	11200	21360000	2136	\N	f	\N
892	1	3	7	2026-09-30	-1	8900	3300	0	3	1200	revenue	-8900	-3300	-5600	-10680000	-1068	returned	f	\N
893	1	1	9	2026-10-01	1	1500	400	0	1	4000	profit	1500	400	1100	4400000	440	\N	f	\N
894	1	1	7	2026-10-01	1	8900	3300	0	1	4000	profit	8900	3300	5600	22400000	2240	\N	f	\N
895	1	2	1	2026-10-02	1	6800	2400	680	6	5750	profit	6120	2400	3720	21390000	2139	\N	f	\N
896	1	2	6	2026-10-02	1	4500	1500	0	6	5750	profit	4500	1500	3000	17250000	1725	\N	f	\N
897	1	2	5	2026-10-02	1	2600	800	0	6	5750	profit	2600	800	1800	10350000	1035	\N	f	\N
898	1	4	2	2026-10-03	1	5400	1900	0	4	5000	profit	5400	1900	3500	17500000	1750	\N	f	\N
899	1	4	1	2026-10-03	1	6800	2400	0	4	5000	profit	6800	2400	4400	22000000	2200	\N	f	\N
900	1	4	10	2026-10-03	1	4200	1600	0	4	5000	profit	4200	1600	2600	13000000	1300	\N	f	\N
901	1	4	1	2026-10-03	1	6800	2400	0	4	5000	profit	6800	2400	4400	22000000	2200	\N	f	\N
902	1	4	9	2026-10-03	1	1500	400	0	4	5000	profit	1500	400	1100	5500000	550	\N	f	\N
903	1	1	3	2026-10-05	1	3800	1200	0	1	4000	profit	3800	1200	2600	10400000	1040	\N	f	\N
904	1	1	7	2026-10-05	1	8900	3300	0	1	4000	profit	8900	3300	5600	22400000	2240	\N	f	\N
905	1	2	8	2026-10-06	2	3200	1000	0	6	5750	profit	6400	2000	4400	25300000	2530	\N	f	\N
906	1	2	3	2026-10-06	2	3800	1200	0	6	5750	profit	7600	2400	5200	29900000	2990	\N	f	\N
907	1	2	11	2026-10-06	1	3500	1300	0	6	5750	profit	3500	1300	2200	12650000	1265	\N	f	\N
908	1	2	10	2026-10-06	1	4200	1600	0	6	5750	profit	4200	1600	2600	14950000	1495	\N	f	\N
909	1	3	3	2026-10-07	1	3800	1200	760	3	1200	revenue	3040	1200	1840	3648000	365	\N	f	\N
910	1	3	12	2026-10-07	1	9500	4200	0	3	1200	revenue	9500	4200	5300	11400000	1140	\N	f	\N
911	1	3	2	2026-10-07	2	5400	1900	0	3	1200	revenue	10800	3800	7000	12960000	1296	\N	f	\N
912	1	3	8	2026-10-07	1	3200	1000	0	3	1200	revenue	3200	1000	2200	3840000	384	\N	f	\N
913	1	1	5	2026-10-08	1	2600	800	0	1	4000	profit	2600	800	1800	7200000	720	\N	f	\N
914	1	1	10	2026-10-08	2	4200	1600	1680	1	4000	profit	6720	3200	3520	14080000	1408	\N	f	\N
915	1	1	7	2026-10-08	1	8900	3300	0	1	4000	profit	8900	3300	5600	22400000	2240	\N	f	\N
916	1	1	9	2026-10-08	1	1500	400	0	1	4000	profit	1500	400	1100	4400000	440	\N	f	\N
917	1	1	3	2026-10-08	1	3800	1200	0	1	4000	profit	3800	1200	2600	10400000	1040	\N	f	\N
918	1	1	5	2026-10-08	1	2600	800	0	1	4000	profit	2600	800	1800	7200000	720	\N	f	\N
919	1	2	3	2026-10-09	1	3800	1200	0	6	5750	profit	3800	1200	2600	14950000	1495	\N	f	\N
920	1	2	1	2026-10-09	1	6800	2400	0	6	5750	profit	6800	2400	4400	25300000	2530	\N	f	\N
921	1	2	1	2026-10-09	1	6800	2400	0	6	5750	profit	6800	2400	4400	25300000	2530	\N	f	\N
922	1	1	9	2026-10-12	1	1500	400	0	1	4000	profit	1500	400	1100	4400000	440	\N	f	\N
923	1	2	1	2026-10-13	2	6800	2400	0	6	5750	profit	13600	4800	8800	50600000	5060	\N	f	\N
924	1	3	7	2026-10-14	1	8900	3300	0	3	1200	revenue	8900	3300	5600	10680000	1068	\N	f	\N
925	1	3	2	2026-10-14	2	5400	1900	0	3	1200	revenue	10800	3800	7000	12960000	1296	\N	f	\N
926	1	1	8	2026-10-15	1	3200	1000	0	1	4000	profit	3200	1000	2200	8800000	880	\N	f	\N
927	1	1	7	2026-10-15	2	8900	3300	3560	1	4000	profit	14240	6600	7640	30560000	3056	\N	f	\N
928	1	1	10	2026-10-15	1	4200	1600	0	1	4000	profit	4200	1600	2600	10400000	1040	\N	f	\N
929	1	1	9	2026-10-15	1	1500	400	0	1	4000	profit	1500	400	1100	4400000	440	\N	f	\N
930	1	2	2	2026-10-16	1	5400	1900	0	6	5750	profit	5400	1900	3500	20125000	2013	\N	f	\N
931	1	2	5	2026-10-16	1	2600	800	0	6	5750	profit	2600	800	1800	10350000	1035	\N	f	\N
932	1	2	8	2026-10-16	2	3200	1000	0	6	5750	profit	6400	2000	4400	25300000	2530	\N	f	\N
933	1	2	5	2026-10-16	1	2600	800	0	6	5750	profit	2600	800	1800	10350000	1035	\N	f	\N
934	1	2	9	2026-10-16	1	1500	400	0	6	5750	profit	1500	400	1100	6325000	633	\N	f	\N
935	1	2	6	2026-10-16	1	4500	1500	0	6	5750	profit	4500	1500	3000	17250000	1725	\N	f	\N
936	1	4	3	2026-10-17	1	3800	1200	0	4	5000	profit	3800	1200	2600	13000000	1300	\N	f	\N
937	1	4	10	2026-10-17	1	4200	1600	0	4	5000	profit	4200	1600	2600	13000000	1300	\N	f	\N
938	1	4	5	2026-10-17	1	2600	800	520	4	5000	profit	2080	800	1280	6400000	640	\N	f	\N
939	1	4	3	2026-10-17	1	3800	1200	0	4	5000	profit	3800	1200	2600	13000000	1300	\N	f	\N
940	1	4	1	2026-10-17	1	6800	2400	0	4	5000	profit	6800	2400	4400	22000000	2200	\N	f	\N
941	1	4	11	2026-10-17	2	3500	1300	0	4	5000	profit	7000	2600	4400	22000000	2200	\N	f	\N
942	1	1	8	2026-10-19	1	3200	1000	640	1	4000	profit	2560	1000	1560	6240000	624	\N	f	\N
943	1	1	2	2026-10-19	1	5400	1900	0	1	4000	profit	5400	1900	3500	14000000	1400	\N	f	\N
944	1	1	9	2026-10-19	1	1500	400	0	1	4000	profit	1500	400	1100	4400000	440	\N	f	\N
945	1	2	9	2026-10-20	1	1500	400	0	6	5750	profit	1500	400	1100	6325000	633	\N	f	\N
946	1	2	5	2026-10-20	1	2600	800	0	6	5750	profit	2600	800	1800	10350000	1035	\N	f	\N
947	1	2	9	2026-10-20	1	1500	400	0	6	5750	profit	1500	400	1100	6325000	633	\N	f	\N
948	1	2	4	2026-10-20	1	7200	2600	0	6	5750	profit	7200	2600	4600	26450000	2645	\N	f	\N
949	1	3	11	2026-10-21	1	3500	1300	0	3	1200	revenue	3500	1300	2200	4200000	420	\N	f	\N
950	1	3	3	2026-10-21	1	3800	1200	0	3	1200	revenue	3800	1200	2600	4560000	456	\N	f	\N
951	1	1	5	2026-10-22	1	2600	800	0	1	4000	profit	2600	800	1800	7200000	720	\N	f	\N
952	1	1	1	2026-10-22	-1	6800	2400	0	5	4500	profit	-6800	-2400	-4400	-19800000	-1980	returned	f	\N
953	1	1	8	2026-10-22	1	3200	1000	640	1	4000	profit	2560	1000	1560	6240000	624	\N	f	\N
954	1	1	9	2026-10-22	1	1500	400	0	1	4000	profit	1500	400	1100	4400000	440	\N	f	\N
955	1	1	1	2026-10-22	1	6800	2400	0	5	4500	profit	6800	2400	4400	19800000	1980	\N	f	\N
956	1	2	6	2026-10-23	1	4500	1500	0	6	5750	profit	4500	1500	3000	17250000	1725	\N	f	\N
957	1	2	10	2026-10-23	1	4200	1600	0	6	5750	profit	4200	1600	2600	14950000	1495	\N	f	\N
958	1	2	6	2026-10-23	1	4500	1500	0	6	5750	profit	4500	1500	3000	17250000	1725	\N	f	\N
959	1	2	5	2026-10-23	1	2600	800	260	6	5750	profit	2340	800	1540	8855000	886	\N	f	\N
960	1	2	7	2026-10-23	1	8900	3300	1780	6	5750	profit	7120	3300	3820	21965000	2197	\N	f	\N
961	1	2	2	2026-10-23	1	5400	1900	0	6	5750	profit	5400	1900	3500	20125000	2013	\N	f	\N
962	1	4	6	2026-10-24	2	4500	1500	900	4	5000	profit	8100	3000	5100	25500000	2550	\N	f	\N
963	1	4	2	2026-10-24	1	5400	1900	0	4	5000	profit	5400	1900	3500	17500000	1750	\N	f	\N
964	1	4	2	2026-10-24	1	5400	1900	1080	4	5000	profit	4320	1900	2420	12100000	1210	\N	f	\N
965	1	1	2	2026-10-26	1	5400	1900	0	1	4000	profit	5400	1900	3500	14000000	1400	\N	f	\N
966	1	3	2	2026-10-28	1	5400	1900	0	3	1200	revenue	5400	1900	3500	6480000	648	\N	f	\N
967	1	3	8	2026-10-28	2	3200	1000	0	3	1200	revenue	6400	2000	4400	7680000	768	\N	f	\N
968	1	3	3	2026-10-28	1	3800	1200	0	3	1200	revenue	3800	1200	2600	4560000	456	\N	f	\N
969	1	3	5	2026-10-28	1	2600	800	0	3	1200	revenue	2600	800	1800	3120000	312	\N	f	\N
970	1	3	5	2026-10-28	1	2600	800	0	3	1200	revenue	2600	800	1800	3120000	312	\N	f	\N
971	1	1	12	2026-10-29	1	9500	4200	0	1	4000	profit	9500	4200	5300	21200000	2120	\N	f	\N
972	1	1	5	2026-10-29	1	2600	800	0	1	4000	profit	2600	800	1800	7200000	720	\N	f	\N
973	1	1	9	2026-10-29	1	1500	400	0	1	4000	profit	1500	400	1100	4400000	440	\N	f	\N
974	1	1	9	2026-10-29	1	1500	400	0	1	4000	profit	1500	400	1100	4400000	440	\N	f	\N
975	1	1	5	2026-10-29	2	2600	800	0	1	4000	profit	5200	1600	3600	14400000	1440	\N	f	\N
976	1	2	1	2026-10-30	1	6800	2400	0	6	5750	profit	6800	2400	4400	25300000	2530	\N	f	\N
977	1	4	4	2026-10-31	1	7200	2600	0	4	5000	profit	7200	2600	4600	23000000	2300	\N	f	\N
978	1	4	4	2026-10-31	2	7200	2600	0	4	5000	profit	14400	5200	9200	46000000	4600	\N	f	\N
979	1	4	9	2026-10-31	1	1500	400	0	4	5000	profit	1500	400	1100	5500000	550	\N	f	\N
980	1	1	1	2026-11-02	1	6800	2400	0	5	4500	profit	6800	2400	4400	19800000	1980	\N	f	\N
981	1	1	1	2026-11-02	1	6800	2400	0	5	4500	profit	6800	2400	4400	19800000	1980	\N	f	\N
982	1	1	9	2026-11-02	2	1500	400	0	1	4000	profit	3000	800	2200	8800000	880	\N	f	\N
983	1	1	3	2026-11-02	1	3800	1200	0	1	4000	profit	3800	1200	2600	10400000	1040	\N	f	\N
984	1	3	2	2026-11-04	2	5400	1900	0	3	1200	revenue	10800	3800	7000	12960000	1296	\N	f	\N
985	1	3	9	2026-11-04	2	1500	400	0	3	1200	revenue	3000	800	2200	3600000	360	\N	f	\N
986	1	3	1	2026-11-04	1	6800	2400	0	3	1200	revenue	6800	2400	4400	8160000	816	\N	f	\N
987	1	3	1	2026-11-04	1	6800	2400	0	3	1200	revenue	6800	2400	4400	8160000	816	\N	f	\N
988	1	3	8	2026-11-04	1	3200	1000	0	3	1200	revenue	3200	1000	2200	3840000	384	\N	f	\N
989	1	3	6	2026-11-04	2	4500	1500	0	3	1200	revenue	9000	3000	6000	10800000	1080	\N	f	\N
990	1	1	5	2026-11-05	1	2600	800	0	1	4000	profit	2600	800	1800	7200000	720	\N	f	\N
991	1	1	9	2026-11-05	2	1500	400	0	1	4000	profit	3000	800	2200	8800000	880	\N	f	\N
992	1	1	2	2026-11-05	1	5400	1900	0	1	4000	profit	5400	1900	3500	14000000	1400	\N	f	\N
993	1	1	9	2026-11-05	1	1500	400	0	1	4000	profit	1500	400	1100	4400000	440	\N	f	\N
994	1	1	2	2026-11-05	1	5400	1900	0	1	4000	profit	5400	1900	3500	14000000	1400	\N	f	\N
995	1	2	1	2026-11-06	1	6800	2400	0	6	5750	profit	6800	2400	4400	25300000	2530	\N	f	\N
996	1	4	9	2026-11-07	1	1500	400	0	4	5000	profit	1500	400	1100	5500000	550	\N	f	\N
997	1	4	1	2026-11-07	1	6800	2400	0	4	5000	profit	6800	2400	4400	22000000	2200	\N	f	\N
998	1	4	5	2026-11-07	1	2600	800	0	4	5000	profit	2600	800	1800	9000000	900	\N	f	\N
999	1	4	3	2026-11-07	1	3800	1200	0	4	5000	profit	3800	1200	2600	13000000	1300	\N	f	\N
1000	1	4	10	2026-11-07	1	4200	1600	0	4	5000	profit	4200	1600	2600	13000000	1300	\N	f	\N
1001	1	1	1	2026-11-09	2	6800	2400	0	5	4500	profit	13600	4800	8800	39600000	3960	\N	f	\N
1002	1	1	5	2026-11-09	-1	2600	800	0	1	4000	profit	-2600	-800	-1800	-7200000	-720	returned	f	\N
1003	1	1	2	2026-11-09	1	5400	1900	0	1	4000	profit	5400	1900	3500	14000000	1400	\N	f	\N
1004	1	1	11	2026-11-09	1	3500	1300	0	1	4000	profit	3500	1300	2200	8800000	880	\N	f	\N
1005	1	1	11	2026-11-09	1	3500	1300	0	1	4000	profit	3500	1300	2200	8800000	880	\N	f	\N
1006	1	2	12	2026-11-10	1	9500	4200	950	6	5750	profit	8550	4200	4350	25012500	2501	\N	f	\N
1007	1	2	7	2026-11-10	1	8900	3300	0	6	5750	profit	8900	3300	5600	32200000	3220	\N	f	\N
1008	1	2	3	2026-11-10	1	3800	1200	0	6	5750	profit	3800	1200	2600	14950000	1495	\N	f	\N
1009	1	2	3	2026-11-10	2	3800	1200	0	6	5750	profit	7600	2400	5200	29900000	2990	\N	f	\N
1010	1	3	3	2026-11-11	1	3800	1200	570	3	1200	revenue	3230	1200	2030	3876000	388	\N	f	\N
1011	1	2	9	2026-11-13	1	1500	400	0	6	5750	profit	1500	400	1100	6325000	633	\N	f	\N
1012	1	2	9	2026-11-13	1	1500	400	0	6	5750	profit	1500	400	1100	6325000	633	\N	f	\N
1013	1	2	6	2026-11-13	1	4500	1500	0	6	5750	profit	4500	1500	3000	17250000	1725	\N	f	\N
1014	1	4	9	2026-11-14	1	1500	400	0	4	5000	profit	1500	400	1100	5500000	550	\N	f	\N
1015	1	4	2	2026-11-14	1	5400	1900	0	4	5000	profit	5400	1900	3500	17500000	1750	\N	f	\N
1016	1	4	9	2026-11-14	2	1500	400	0	4	5000	profit	3000	800	2200	11000000	1100	\N	f	\N
1017	1	4	7	2026-11-14	1	8900	3300	0	4	5000	profit	8900	3300	5600	28000000	2800	\N	f	\N
1018	1	4	3	2026-11-14	1	3800	1200	0	4	5000	profit	3800	1200	2600	13000000	1300	\N	f	\N
1019	1	4	6	2026-11-14	1	4500	1500	0	4	5000	profit	4500	1500	3000	15000000	1500	\N	f	\N
1020	1	1	1	2026-11-16	1	6800	2400	0	5	4500	profit	6800	2400	4400	19800000	1980	\N	f	\N
1021	1	1	1	2026-11-16	2	6800	2400	0	5	4500	profit	13600	4800	8800	39600000	3960	\N	f	\N
1022	1	1	3	2026-11-16	2	3800	1200	0	1	4000	profit	7600	2400	5200	20800000	2080	\N	f	\N
1023	1	2	3	2026-11-17	2	3800	1200	0	6	5750	profit	7600	2400	5200	29900000	2990	\N	f	\N
1024	1	3	8	2026-11-18	1	3200	1000	0	3	1200	revenue	3200	1000	2200	3840000	384	\N	f	\N
1025	1	1	9	2026-11-19	2	1500	400	0	1	4000	profit	3000	800	2200	8800000	880	\N	f	\N
1026	1	1	7	2026-11-19	1	8900	3300	0	1	4000	profit	8900	3300	5600	22400000	2240	\N	f	\N
1027	1	1	1	2026-11-19	1	6800	2400	1360	5	4500	profit	5440	2400	3040	13680000	1368	\N	f	\N
1028	1	1	9	2026-11-19	1	1500	400	0	1	4000	profit	1500	400	1100	4400000	440	\N	f	\N
1029	1	1	2	2026-11-19	2	5400	1900	0	1	4000	profit	10800	3800	7000	28000000	2800	\N	f	\N
1030	1	2	5	2026-11-20	2	2600	800	0	6	5750	profit	5200	1600	3600	20700000	2070	\N	f	\N
1031	1	2	3	2026-11-20	1	3800	1200	0	6	5750	profit	3800	1200	2600	14950000	1495	\N	f	\N
1032	1	4	1	2026-11-21	1	6800	2400	1020	4	5000	profit	5780	2400	3380	16900000	1690	\N	f	\N
1033	1	4	3	2026-11-21	1	3800	1200	0	4	5000	profit	3800	1200	2600	13000000	1300	\N	f	\N
1034	1	1	2	2026-11-23	1	5400	1900	0	1	4000	profit	5400	1900	3500	14000000	1400	\N	f	\N
1035	1	1	5	2026-11-23	1	2600	800	390	1	4000	profit	2210	800	1410	5640000	564	\N	f	\N
1036	1	1	12	2026-11-23	2	9500	4200	0	1	4000	profit	19000	8400	10600	42400000	4240	\N	f	\N
1037	1	1	5	2026-11-23	1	2600	800	0	1	4000	profit	2600	800	1800	7200000	720	\N	f	\N
1038	1	1	8	2026-11-23	2	3200	1000	0	1	4000	profit	6400	2000	4400	17600000	1760	\N	f	\N
1039	1	1	6	2026-11-23	1	4500	1500	900	1	4000	profit	3600	1500	2100	8400000	840	\N	f	\N
\.


--
-- Data for Name: session; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.session (tokendigest, accountid, csrftoken, expiresat) FROM stdin;
\.


--
-- Data for Name: terms; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.terms (id, bookid, clinicid, productid, basis, sharebasispoints, effectivefrom, isarchived) FROM stdin;
1	1	1	\N	profit	4000	2025-11-24	f
2	1	2	\N	profit	5500	2025-11-24	f
3	1	3	\N	revenue	1200	2025-11-24	f
4	1	4	\N	profit	5000	2025-11-24	f
5	1	1	1	profit	4500	2025-11-24	f
6	1	2	\N	profit	5750	2026-06-01	f
\.


--
-- Name: account_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.account_id_seq', 1, false);


--
-- Name: apitoken_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.apitoken_id_seq', 1, false);


--
-- Name: auditentry_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.auditentry_id_seq', 194, true);


--
-- Name: book_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.book_id_seq', 1, true);


--
-- Name: clinic_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.clinic_id_seq', 4, true);


--
-- Name: payout_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.payout_id_seq', 108, true);


--
-- Name: product_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.product_id_seq', 12, true);


--
-- Name: sale_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.sale_id_seq', 1039, true);


--
-- Name: terms_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.terms_id_seq', 6, true);


--
-- Name: account account_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.account
    ADD CONSTRAINT account_pkey PRIMARY KEY (id);


--
-- Name: apitoken apitoken_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.apitoken
    ADD CONSTRAINT apitoken_pkey PRIMARY KEY (id);


--
-- Name: apitoken apitoken_tokendigest_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.apitoken
    ADD CONSTRAINT apitoken_tokendigest_key UNIQUE (tokendigest);


--
-- Name: auditentry auditentry_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.auditentry
    ADD CONSTRAINT auditentry_pkey PRIMARY KEY (id);


--
-- Name: book book_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.book
    ADD CONSTRAINT book_pkey PRIMARY KEY (id);


--
-- Name: clinic clinic_bookid_id_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.clinic
    ADD CONSTRAINT clinic_bookid_id_key UNIQUE (bookid, id);


--
-- Name: clinic clinic_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.clinic
    ADD CONSTRAINT clinic_pkey PRIMARY KEY (id);


--
-- Name: clinicdaytotal clinicdaytotal_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.clinicdaytotal
    ADD CONSTRAINT clinicdaytotal_pkey PRIMARY KEY (bookid, clinicid, date);


--
-- Name: clinicmonthtotal clinicmonthtotal_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.clinicmonthtotal
    ADD CONSTRAINT clinicmonthtotal_pkey PRIMARY KEY (bookid, clinicid, month);


--
-- Name: closedperiod closedperiod_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.closedperiod
    ADD CONSTRAINT closedperiod_pkey PRIMARY KEY (bookid, clinicid, periodstart);


--
-- Name: commissionmigration commissionmigration_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.commissionmigration
    ADD CONSTRAINT commissionmigration_pkey PRIMARY KEY (name);


--
-- Name: invitation invitation_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.invitation
    ADD CONSTRAINT invitation_pkey PRIMARY KEY (tokendigest);


--
-- Name: member member_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.member
    ADD CONSTRAINT member_pkey PRIMARY KEY (bookid, accountid);


--
-- Name: payout payout_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.payout
    ADD CONSTRAINT payout_pkey PRIMARY KEY (id);


--
-- Name: product product_bookid_id_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.product
    ADD CONSTRAINT product_bookid_id_key UNIQUE (bookid, id);


--
-- Name: product product_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.product
    ADD CONSTRAINT product_pkey PRIMARY KEY (id);


--
-- Name: productmonthtotal productmonthtotal_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.productmonthtotal
    ADD CONSTRAINT productmonthtotal_pkey PRIMARY KEY (bookid, productid, month);


--
-- Name: productyeartotal productyeartotal_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.productyeartotal
    ADD CONSTRAINT productyeartotal_pkey PRIMARY KEY (bookid, year, productid);


--
-- Name: sale sale_bookid_idempotencykey_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.sale
    ADD CONSTRAINT sale_bookid_idempotencykey_key UNIQUE (bookid, idempotencykey);


--
-- Name: sale sale_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.sale
    ADD CONSTRAINT sale_pkey PRIMARY KEY (id);


--
-- Name: session session_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.session
    ADD CONSTRAINT session_pkey PRIMARY KEY (tokendigest);


--
-- Name: terms terms_bookid_id_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.terms
    ADD CONSTRAINT terms_bookid_id_key UNIQUE (bookid, id);


--
-- Name: terms terms_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.terms
    ADD CONSTRAINT terms_pkey PRIMARY KEY (id);


--
-- Name: account_username; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX account_username ON public.account USING btree (lower(username));


--
-- Name: auditentry_subject; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX auditentry_subject ON public.auditentry USING btree (bookid, subject, subjectid);


--
-- Name: clinic_name; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX clinic_name ON public.clinic USING btree (bookid, lower(name));


--
-- Name: member_account; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX member_account ON public.member USING btree (accountid);


--
-- Name: payout_clinic_period; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX payout_clinic_period ON public.payout USING btree (bookid, clinicid, periodstart);


--
-- Name: product_name; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX product_name ON public.product USING btree (bookid, lower(name));


--
-- Name: product_sku; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX product_sku ON public.product USING btree (bookid, lower(sku)) WHERE (sku IS NOT NULL);


--
-- Name: sale_clinic_date; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX sale_clinic_date ON public.sale USING btree (bookid, clinicid, date);


--
-- Name: sale_date; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX sale_date ON public.sale USING btree (bookid, date);


--
-- Name: sale_product_date; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX sale_product_date ON public.sale USING btree (bookid, productid, date);


--
-- Name: terms_clinic; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX terms_clinic ON public.terms USING btree (bookid, clinicid, effectivefrom);


--
-- Name: auditentry auditentry_append_only; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER auditentry_append_only BEFORE DELETE OR UPDATE ON public.auditentry FOR EACH ROW EXECUTE FUNCTION public.commission_audit_append_only();


--
-- Name: sale sale_summaries_after_delete; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER sale_summaries_after_delete AFTER DELETE ON public.sale REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION public.commission_summaries_after_delete();


--
-- Name: sale sale_summaries_after_insert; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER sale_summaries_after_insert AFTER INSERT ON public.sale REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION public.commission_summaries_after_insert();


--
-- Name: sale sale_summaries_after_update; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER sale_summaries_after_update AFTER UPDATE ON public.sale REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION public.commission_summaries_after_update();


--
-- Name: apitoken apitoken_accountid_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.apitoken
    ADD CONSTRAINT apitoken_accountid_fkey FOREIGN KEY (accountid) REFERENCES public.account(id) ON DELETE CASCADE;


--
-- Name: auditentry auditentry_bookid_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.auditentry
    ADD CONSTRAINT auditentry_bookid_fkey FOREIGN KEY (bookid) REFERENCES public.book(id) ON DELETE CASCADE;


--
-- Name: clinic clinic_bookid_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.clinic
    ADD CONSTRAINT clinic_bookid_fkey FOREIGN KEY (bookid) REFERENCES public.book(id) ON DELETE CASCADE;


--
-- Name: clinicdaytotal clinicdaytotal_bookid_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.clinicdaytotal
    ADD CONSTRAINT clinicdaytotal_bookid_fkey FOREIGN KEY (bookid) REFERENCES public.book(id) ON DELETE CASCADE;


--
-- Name: clinicmonthtotal clinicmonthtotal_bookid_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.clinicmonthtotal
    ADD CONSTRAINT clinicmonthtotal_bookid_fkey FOREIGN KEY (bookid) REFERENCES public.book(id) ON DELETE CASCADE;


--
-- Name: closedperiod closedperiod_bookid_clinicid_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.closedperiod
    ADD CONSTRAINT closedperiod_bookid_clinicid_fkey FOREIGN KEY (bookid, clinicid) REFERENCES public.clinic(bookid, id) ON DELETE RESTRICT;


--
-- Name: invitation invitation_accountid_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.invitation
    ADD CONSTRAINT invitation_accountid_fkey FOREIGN KEY (accountid) REFERENCES public.account(id) ON DELETE SET NULL;


--
-- Name: invitation invitation_bookid_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.invitation
    ADD CONSTRAINT invitation_bookid_fkey FOREIGN KEY (bookid) REFERENCES public.book(id) ON DELETE CASCADE;


--
-- Name: invitation invitation_invitedby_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.invitation
    ADD CONSTRAINT invitation_invitedby_fkey FOREIGN KEY (invitedby) REFERENCES public.account(id) ON DELETE CASCADE;


--
-- Name: member member_accountid_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.member
    ADD CONSTRAINT member_accountid_fkey FOREIGN KEY (accountid) REFERENCES public.account(id) ON DELETE CASCADE;


--
-- Name: member member_bookid_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.member
    ADD CONSTRAINT member_bookid_fkey FOREIGN KEY (bookid) REFERENCES public.book(id) ON DELETE CASCADE;


--
-- Name: payout payout_bookid_clinicid_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.payout
    ADD CONSTRAINT payout_bookid_clinicid_fkey FOREIGN KEY (bookid, clinicid) REFERENCES public.clinic(bookid, id) ON DELETE RESTRICT;


--
-- Name: product product_bookid_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.product
    ADD CONSTRAINT product_bookid_fkey FOREIGN KEY (bookid) REFERENCES public.book(id) ON DELETE CASCADE;


--
-- Name: productmonthtotal productmonthtotal_bookid_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.productmonthtotal
    ADD CONSTRAINT productmonthtotal_bookid_fkey FOREIGN KEY (bookid) REFERENCES public.book(id) ON DELETE CASCADE;


--
-- Name: productyeartotal productyeartotal_bookid_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.productyeartotal
    ADD CONSTRAINT productyeartotal_bookid_fkey FOREIGN KEY (bookid) REFERENCES public.book(id) ON DELETE CASCADE;


--
-- Name: sale sale_bookid_clinicid_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.sale
    ADD CONSTRAINT sale_bookid_clinicid_fkey FOREIGN KEY (bookid, clinicid) REFERENCES public.clinic(bookid, id) ON DELETE RESTRICT;


--
-- Name: sale sale_bookid_productid_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.sale
    ADD CONSTRAINT sale_bookid_productid_fkey FOREIGN KEY (bookid, productid) REFERENCES public.product(bookid, id) ON DELETE RESTRICT;


--
-- Name: sale sale_bookid_termsid_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.sale
    ADD CONSTRAINT sale_bookid_termsid_fkey FOREIGN KEY (bookid, termsid) REFERENCES public.terms(bookid, id) ON DELETE RESTRICT;


--
-- Name: session session_accountid_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.session
    ADD CONSTRAINT session_accountid_fkey FOREIGN KEY (accountid) REFERENCES public.account(id) ON DELETE CASCADE;


--
-- Name: terms terms_bookid_clinicid_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.terms
    ADD CONSTRAINT terms_bookid_clinicid_fkey FOREIGN KEY (bookid, clinicid) REFERENCES public.clinic(bookid, id) ON DELETE CASCADE;


--
-- Name: terms terms_bookid_productid_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.terms
    ADD CONSTRAINT terms_bookid_productid_fkey FOREIGN KEY (bookid, productid) REFERENCES public.product(bookid, id) ON DELETE RESTRICT;


--
-- PostgreSQL database dump complete
--

\unrestrict YE6ZWB2y8ytrY3QnsYRZUtRtNYelzgGe0Q3nHtq3FXKPbuH4b1dfGwKfOiu5C1d

