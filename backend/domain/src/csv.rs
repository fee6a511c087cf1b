//! Reading lines of a CSV file (RFC 4180 quoting), for the rating-list import. Pure, so
//! that the fuzz targets and property tests reach it without a database.

/// Splits a CSV line into fields (RFC 4180 quotes; a quoted field may hold commas and
/// doubled quotes, not line breaks).
pub fn split_line(line: &str) -> Option<Vec<String>> {
    let mut fields = Vec::new();
    let mut field = String::new();
    let mut chars = line.chars().peekable();
    let mut quoted = false;
    let mut at_start = true;
    while let Some(c) = chars.next() {
        match c {
            ' ' | '\t' if at_start && !quoted => continue,
            '"' if at_start && !quoted => quoted = true,
            '"' if quoted => {
                if chars.peek() == Some(&'"') {
                    chars.next();
                    field.push('"');
                } else {
                    quoted = false;
                }
            }
            ',' if !quoted => {
                fields.push(std::mem::take(&mut field).trim().to_string());
                at_start = true;
                continue;
            }
            _ => field.push(c),
        }
        at_start = false;
    }
    if quoted {
        return None;
    }
    fields.push(field.trim().to_string());
    Some(fields)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_lines_split_on_commas_outside_quotes() {
        assert_eq!(
            split_line(r#"12, "Иванов, Иван" ,"say ""hi""",,x"#),
            Some(vec![
                "12".into(),
                "Иванов, Иван".into(),
                "say \"hi\"".into(),
                String::new(),
                "x".into()
            ])
        );
        assert_eq!(split_line(r#"1,"open"#), None);
    }
}
