//! The SQL dialect handed to sqlparser: its MySQL dialect with MariaDB's
//! operator precedence where the two differ.
//!
//! sqlparser ranks `XOR` above the comparisons (PostgreSQL's `#`), so
//! `a IS NULL XOR 'x' <> b` parsed as `(a IS NULL XOR 'x') <> b`; in
//! MariaDB `XOR` sits between `OR` and `AND`. And it reads the operand of
//! `BINARY` as a whole expression, so `BINARY 'a' = 'A'` was
//! `BINARY ('a' = 'A')`; MariaDB binds `BINARY` as tightly as unary minus
//! (`BINARY simple_expr %prec NEG`). A wrapper is the way
//! sqlparser offers to change that: it reports MySqlDialect's type id (so
//! the parser's MySQL-only paths still apply) and forwards every method
//! MySqlDialect overrides.

use sqlparser::ast::{
    CastKind, ColumnOption, DataType, Expr, Statement, TimezoneInfo, TypedString, UnaryOperator, Value,
};
use sqlparser::dialect::{Dialect, MySqlDialect, Precedence};
use sqlparser::keywords::Keyword;
use sqlparser::parser::{Parser, ParserError};
use sqlparser::tokenizer::Token;
use std::any::TypeId;

#[derive(Debug, Default)]
pub(crate) struct MariaDbDialect;

const MYSQL: MySqlDialect = MySqlDialect {};

macro_rules! forward_flags {
    ($($name:ident),* $(,)?) => {
        $(fn $name(&self) -> bool { MYSQL.$name() })*
    };
}

impl Dialect for MariaDbDialect {
    fn dialect(&self) -> TypeId {
        TypeId::of::<MySqlDialect>()
    }

    fn prec_value(&self, prec: Precedence) -> u8 {
        let or = MYSQL.prec_value(Precedence::Or);
        let and = MYSQL.prec_value(Precedence::And);
        match prec {
            // Between OR and AND, as in MariaDB's grammar.
            Precedence::Xor => (or + and) / 2,
            other => MYSQL.prec_value(other),
        }
    }

    fn is_identifier_start(&self, ch: char) -> bool {
        MYSQL.is_identifier_start(ch)
    }

    fn is_identifier_part(&self, ch: char) -> bool {
        MYSQL.is_identifier_part(ch)
    }

    fn is_delimited_identifier_start(&self, ch: char) -> bool {
        MYSQL.is_delimited_identifier_start(ch)
    }

    fn identifier_quote_style(&self, identifier: &str) -> Option<char> {
        MYSQL.identifier_quote_style(identifier)
    }

    fn parse_prefix(&self, parser: &mut Parser) -> Option<Result<Expr, ParserError>> {
        let [first, operand] = parser.peek_tokens::<2>();
        if matches!(&first, Token::Word(w) if w.keyword == Keyword::INTERVAL) && operand == Token::LParen {
            return interval_function(parser).transpose();
        }
        if first == Token::LBrace {
            return Some(odbc_escape(parser));
        }
        // MariaDB's grammar wants the argument of a percentile function:
        // `percentile_cont()` is an error at its `)`.
        let percentile = matches!(&first, Token::Word(w) if matches!(w.value.to_ascii_lowercase().as_str(), "percentile_cont" | "percentile_disc" | "median"));
        if percentile && operand == Token::LParen {
            let close = parser.peek_nth_token(2);
            if close.token == Token::RParen {
                return Some(parser.expected("an argument", close));
            }
        }
        if first == Token::ExclamationMark {
            // MariaDB's `'!' simple_expr %prec NEG`: as tight as unary minus,
            // so `!1+1` is `(!1)+1` (sqlparser gives `!` NOT's loose rank).
            parser.next_token();
            let operand = parser.parse_subexpr(self.prec_value(Precedence::MulDivModOp));
            return Some(operand.map(|expr| Expr::UnaryOp { op: UnaryOperator::BangNot, expr: Box::new(expr) }));
        }
        // `BINARY` with nothing after it is a value, not the operator
        // (mariadb-import sends `SET @@character_set_database=binary`).
        let ends = matches!(operand, Token::EOF | Token::SemiColon | Token::Comma | Token::RParen);
        if !matches!(&first, Token::Word(w) if w.keyword == Keyword::BINARY) || ends {
            return None;
        }
        parser.next_token();
        // The same cast sqlparser makes of `BINARY expr`, around the
        // operand unary minus would take.
        let operand = parser.parse_subexpr(self.prec_value(Precedence::MulDivModOp));
        Some(operand.map(|expr| Expr::Cast {
            kind: CastKind::Cast,
            expr: Box::new(expr),
            data_type: DataType::Binary(None),
            format: None,
        }))
    }

    fn parse_infix(&self, parser: &mut Parser, expr: &Expr, precedence: u8) -> Option<Result<Expr, ParserError>> {
        MYSQL.parse_infix(parser, expr, precedence)
    }

    fn parse_statement(&self, parser: &mut Parser) -> Option<Result<Statement, ParserError>> {
        MYSQL.parse_statement(parser)
    }

    /// MariaDB's `AS (expr) PERSISTENT` (STORED by its older name), and
    /// the BINARY / ASCII attributes, which sqlparser does not know:
    /// dialect-specific options (see `parse::ddl::convert_column`).
    fn parse_column_option(
        &self,
        parser: &mut Parser,
    ) -> Result<Option<Result<Option<ColumnOption>, ParserError>>, ParserError> {
        if parser.parse_keyword(Keyword::PERSISTENT) {
            return Ok(Some(Ok(Some(ColumnOption::DialectSpecific(vec![Token::make_keyword("PERSISTENT")])))));
        }
        // The BINARY and ASCII attributes of a text type (`VARCHAR(32)
        // BINARY`): its charset's _bin collation, and latin1.
        let attribute = match &parser.peek_token_ref().token {
            Token::Word(w) if w.quote_style.is_none() && w.keyword == Keyword::BINARY => "BINARY",
            Token::Word(w) if w.quote_style.is_none() && w.value.eq_ignore_ascii_case("ASCII") => "ASCII",
            _ => return Ok(None),
        };
        parser.next_token();
        Ok(Some(Ok(Some(ColumnOption::DialectSpecific(vec![Token::make_keyword(attribute)])))))
    }

    fn is_table_factor_alias(&self, explicit: bool, kw: &Keyword, parser: &mut Parser) -> bool {
        MYSQL.is_table_factor_alias(explicit, kw, parser)
    }

    /// sqlparser reserves EXCLUDE after a select item (Snowflake's
    /// `SELECT * EXCLUDE`); in MariaDB it is an ordinary non-reserved word.
    fn is_column_alias(&self, kw: &Keyword, parser: &mut Parser) -> bool {
        *kw == Keyword::EXCLUDE || MYSQL.is_column_alias(kw, parser)
    }

    forward_flags!(
        supports_string_literal_backslash_escape,
        supports_string_literal_concatenation,
        ignores_wildcard_escapes,
        supports_numeric_prefix,
        supports_bitwise_shift_operators,
        supports_multiline_comment_hints,
        require_interval_qualifier,
        supports_limit_comma,
        supports_create_table_select,
        supports_insert_set,
        supports_user_host_grantee,
        supports_table_hints,
        requires_single_line_comment_whitespace,
        supports_match_against,
        supports_select_modifiers,
        supports_set_names,
        supports_comma_separated_set_assignments,
        supports_update_order_by,
        supports_data_type_signed_suffix,
        supports_cross_join_constraint,
        supports_double_ampersand_operator,
        supports_binary_kw_as_cast,
        supports_comment_optimizer_hint,
        supports_constraint_keyword_without_name,
        supports_key_column_option,
        supports_group_by_with_modifier,
        supports_left_associative_joins_without_parens,
    );
}

/// An ODBC escape `{ident expr}`: `{d '2001-02-03'}`, `{t ...}`, `{ts ...}`
/// make a string a DATE, TIME or DATETIME literal; any other `{fn expr}`
/// is the expression itself (MariaDB's `make_odbc_literal`).
fn odbc_escape(parser: &mut Parser) -> Result<Expr, ParserError> {
    parser.expect_token(&Token::LBrace)?;
    let kind = parser.parse_identifier()?.value.to_ascii_lowercase();
    let expr = parser.parse_expr()?;
    parser.expect_token(&Token::RBrace)?;
    let data_type = match kind.as_str() {
        "d" => DataType::Date,
        "t" => DataType::Time(None, TimezoneInfo::None),
        "ts" => DataType::Datetime(None),
        _ => return Ok(expr),
    };
    Ok(match expr {
        Expr::Value(value) if matches!(value.value, Value::SingleQuotedString(_) | Value::DoubleQuotedString(_)) => {
            Expr::TypedString(TypedString { data_type, value, uses_odbc_syntax: true })
        }
        other => other,
    })
}

/// MariaDB's `INTERVAL(N, N1, N2, ...)` function (the index of the last
/// `Ni <= N`), which sqlparser reads as an interval literal. With fewer
/// than two arguments the tokens are an interval after all
/// (`INTERVAL (1) DAY`), and the parser is left where it was.
fn interval_function(parser: &mut Parser) -> Result<Option<Expr>, ParserError> {
    use sqlparser::ast::{
        Function, FunctionArg, FunctionArgExpr, FunctionArgumentList, FunctionArguments, Ident, ObjectName,
    };
    let args = parser.maybe_parse(|p| {
        p.expect_keyword(Keyword::INTERVAL)?;
        p.expect_token(&Token::LParen)?;
        let args = p.parse_comma_separated(Parser::parse_expr)?;
        p.expect_token(&Token::RParen)?;
        match args.len() {
            0 | 1 => Err(ParserError::ParserError("an interval, not INTERVAL()".into())),
            _ => Ok(args),
        }
    })?;
    Ok(args.map(|args| {
        Expr::Function(Function {
            name: ObjectName::from(vec![Ident::new("interval")]),
            uses_odbc_syntax: false,
            parameters: FunctionArguments::None,
            args: FunctionArguments::List(FunctionArgumentList {
                duplicate_treatment: None,
                args: args.into_iter().map(|e| FunctionArg::Unnamed(FunctionArgExpr::Expr(e))).collect(),
                clauses: vec![],
            }),
            filter: None,
            null_treatment: None,
            over: None,
            within_group: vec![],
        })
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xor_binds_looser_than_comparison_and_tighter_than_or() {
        let parse = |sql: &str| Parser::new(&MariaDbDialect).try_with_sql(sql).and_then(|mut p| p.parse_expr());
        let e = parse("a IS NULL XOR 'x' <> b").expect("parses").to_string();
        assert_eq!(e, "a IS NULL XOR 'x' <> b");
        assert!(matches!(parse("a XOR b = c"), Ok(Expr::BinaryOp { op: sqlparser::ast::BinaryOperator::Xor, .. })));
        assert!(matches!(parse("a OR b XOR c"), Ok(Expr::BinaryOp { op: sqlparser::ast::BinaryOperator::Or, .. })));
        assert!(matches!(parse("a XOR b AND c"), Ok(Expr::BinaryOp { op: sqlparser::ast::BinaryOperator::Xor, .. })));
    }

    #[test]
    fn binary_casts_only_its_operand_and_alone_is_a_value() {
        let parse = |sql: &str| Parser::new(&MariaDbDialect).try_with_sql(sql).and_then(|mut p| p.parse_expr());
        let comparison = parse("BINARY 'a' = 'A'").expect("parses");
        assert!(
            matches!(&comparison, Expr::BinaryOp { left, .. } if matches!(**left, Expr::Cast { .. })),
            "{comparison:?}"
        );
        assert!(matches!(parse("-BINARY '3' * 2"), Ok(Expr::BinaryOp { .. })));
        let set = Parser::parse_sql(&MariaDbDialect, "SET @@character_set_database=binary");
        assert!(set.is_ok(), "{set:?}");
    }
}
