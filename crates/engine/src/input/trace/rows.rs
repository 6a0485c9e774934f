//! Row parsing: finding the named columns in the CSV header and reading one record into a
//! compact [`Row`], or the reason it is skipped.

use super::*;

/// One imported job, compact.
#[derive(Clone, Copy, Debug)]
pub(super) struct Row {
    pub(super) submit_ms: i64,
    pub(super) work_ms: i64,
    pub(super) instances: u32,
    pub(super) priority: Priority,
    pub(super) share: u32,
    /// The GPUs the row asks for, in thousandths (1 without a GPUs column): at most
    /// 1e6 GPUs, so under `u32::MAX`. Only the import's warnings read it.
    pub(super) milli_gpus: u32,
}

/// Column indexes of the options' columns, with their names for messages.
pub(super) struct Columns {
    pub(super) submit: (usize, String),
    pub(super) duration: Option<(usize, String)>,
    pub(super) end: Option<(usize, String)>,
    pub(super) gpus: Option<(usize, String)>,
    pub(super) share: Option<(usize, String)>,
    pub(super) priority: Option<(usize, String)>,
}

impl Columns {
    pub(super) fn find(header: &csv::ByteRecord, opts: &ImportOptions) -> Result<Columns, Problem> {
        let names: Vec<String> = header
            .iter()
            .map(|h| String::from_utf8_lossy(h.trim_ascii()).into_owned())
            .collect();
        let find = |option: &str, wanted: &str| -> Result<(usize, String), Problem> {
            let wanted = wanted.trim();
            match names.iter().position(|n| n == wanted) {
                Some(i) => Ok((i, wanted.to_string())),
                None => Err(Problem::new(
                    Path::named(option),
                    format!(
                        "no column {wanted:?} in the trace's header; its columns are: {}",
                        list_columns(&names)
                    ),
                )),
            }
        };
        let optional = |option: &str, wanted: &Option<String>| {
            wanted.as_deref().map(|w| find(option, w)).transpose()
        };
        Ok(Columns {
            submit: find("--submit", &opts.submit)?,
            duration: optional("--duration", &opts.duration)?,
            end: optional("--end", &opts.end)?,
            gpus: optional("--gpus", &opts.gpus)?,
            share: optional("--share", &opts.share)?,
            priority: optional("--priority", &opts.priority)?,
        })
    }
}

/// The header's column names for a message, shortened if the header is huge.
pub(super) fn list_columns(names: &[String]) -> String {
    const MAX: usize = 40;
    let mut shown: Vec<String> = names.iter().take(MAX).map(|n| shorten(n)).collect();
    if names.len() > MAX {
        shown.push(format!("... ({} columns in all)", names.len()));
    }
    shown.join(", ")
}

/// A value quoted for a message, cut to 40 characters.
pub(super) fn quote(text: &str) -> String {
    format!("{:?}", shorten(text))
}

pub(super) fn shorten(text: &str) -> String {
    const MAX: usize = 40;
    if text.chars().count() <= MAX {
        text.to_string()
    } else {
        let cut: String = text.chars().take(MAX).collect();
        format!("{cut}...")
    }
}

/// The distinct share values of the trace, with their job counts and demand.
#[derive(Default)]
pub(super) struct ShareTable {
    pub(super) index: HashMap<String, u32>,
    pub(super) names: Vec<String>,
    pub(super) jobs: Vec<u64>,
}

impl ShareTable {
    pub(super) fn intern(&mut self, name: &str) -> u32 {
        if let Some(&i) = self.index.get(name) {
            return i;
        }
        let i = self.names.len() as u32;
        self.index.insert(name.to_string(), i);
        self.names.push(name.to_string());
        self.jobs.push(0);
        i
    }
}

/// The text of a column in a row, trimmed; a reason if missing, empty or not UTF-8.
pub(super) fn field<'r>(
    record: &'r csv::ByteRecord,
    column: &(usize, String),
) -> Result<&'r str, String> {
    let (index, name) = column;
    let bytes = record.get(*index).ok_or_else(|| {
        format!(
            "{name}: missing value (the row has {} columns)",
            record.len()
        )
    })?;
    let text = std::str::from_utf8(bytes)
        .map_err(|_| format!("{name}: not UTF-8 text"))?
        .trim();
    if text.is_empty() {
        return Err(format!("{name}: empty"));
    }
    Ok(text)
}

/// Reads one data row as a job, or says why it cannot be read.
pub(super) fn read_row(
    record: &csv::ByteRecord,
    columns: &Columns,
    opts: &ImportOptions,
    priority_map: &HashMap<&str, Priority>,
    shares: &mut ShareTable,
) -> Result<Row, String> {
    if record.iter().any(is_oversized) {
        return Err("longer than 1 MiB".to_string());
    }
    let unit = opts.time_unit;
    let submit_ms = {
        let text = field(record, &columns.submit)?;
        parse_time(text, unit).map_err(|e| format!("{}: {e}", columns.submit.1))?
    };
    let work_ms = if let Some(column) = &columns.duration {
        let text = field(record, column)?;
        let ms = parse_number_ms(text, unit).map_err(|e| format!("{}: {e}", column.1))?;
        if ms <= 0 {
            return Err(format!("{}: must be > 0, not {}", column.1, quote(text)));
        }
        ms
    } else if let Some(column) = &columns.end {
        let text = field(record, column)?;
        let end_ms = parse_time(text, unit).map_err(|e| format!("{}: {e}", column.1))?;
        if end_ms <= submit_ms {
            return Err(format!(
                "{}: must be after the submit time, not {}",
                column.1,
                quote(text)
            ));
        }
        end_ms - submit_ms
    } else {
        return Err("no duration or end column".to_string());
    };
    let (instances, milli_gpus) = match &columns.gpus {
        None => (1, 1000),
        Some(column) => {
            let text = field(record, column)?;
            let gpus = parse_float(text).map_err(|e| format!("{}: {e}", column.1))?;
            if gpus > MAX_GPUS {
                return Err(format!("{}: out of range: {}", column.1, quote(text)));
            }
            // gpus <= 1e6, so the quotient fits in u32.
            let instances = (gpus / f64::from(opts.gpus_per_instance)).ceil() as u32;
            (instances.max(1), (gpus * 1000.0).round() as u32)
        }
    };
    let priority = match &columns.priority {
        None => 0,
        Some(column) => {
            let text = field(record, column)?;
            if opts.priority_map.is_empty() {
                match text.parse::<Priority>() {
                    Ok(p) if (MIN_PRIORITY..=MAX_PRIORITY).contains(&p) => p,
                    _ => {
                        return Err(format!(
                            "{}: not a priority 0..=9999 (and no --priority-map): {}",
                            column.1,
                            quote(text)
                        ))
                    }
                }
            } else {
                match priority_map.get(text) {
                    Some(&p) => p,
                    None => {
                        return Err(format!(
                            "{}: {} is not in --priority-map",
                            column.1,
                            quote(text)
                        ))
                    }
                }
            }
        }
    };
    // The share last: a skipped row never creates a share.
    let share = match &columns.share {
        None => shares.intern("default"),
        Some(column) => {
            let text = field(record, column)?;
            if text.chars().count() > MAX_SHARE_NAME {
                return Err(format!(
                    "{}: a share name is at most 128 characters: {}",
                    column.1,
                    quote(text)
                ));
            }
            shares.intern(text)
        }
    };
    if let Some(count) = shares.jobs.get_mut(share as usize) {
        *count += 1;
    }
    Ok(Row {
        submit_ms,
        work_ms,
        instances,
        priority,
        share,
        milli_gpus,
    })
}

/// A finite, non-negative number.
pub(super) fn parse_float(text: &str) -> Result<f64, String> {
    let value: f64 = text
        .parse()
        .map_err(|_| format!("not a number: {}", quote(text)))?;
    if !value.is_finite() {
        return Err(format!("not a finite number: {}", quote(text)));
    }
    if value < 0.0 {
        return Err(format!("negative: {}", quote(text)));
    }
    Ok(value)
}
