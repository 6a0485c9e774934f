//! What the history keeps of a record of a kubectl List (SPEC 16): the fields its Kueue
//! reader reads, by rules that serde_json's reader (JSON, `stream.rs`) and the reader of
//! kubectl's YAML (`kyaml.rs`) both follow, so that less is built.
//!
//! Natively only: in wasm the records are read from text by `HistoryReader::value_done`
//! (the engine worker's size budget has no room for a second instantiation of serde_json's
//! reader; the results are the same).

use serde_json::{Map, Value};

/// Which fields of a value the readers use: the fields named (each with its own rule), the
/// others whole (`others`) or not at all, and a list's elements by `each`. A value that is
/// not a mapping (or not a list) is kept whole, so that every problem the reader reports
/// of a kept field is the same as on the whole record.
pub(super) struct Rule {
    pub(super) others: bool,
    pub(super) fields: &'static [(&'static str, &'static Rule)],
    pub(super) each: Option<&'static Rule>,
}

/// Everything.
pub(super) static ALL: Rule = Rule {
    others: true,
    fields: &[],
    each: None,
};
static CONTAINER: Rule = Rule {
    others: false,
    fields: &[("resources", &ALL)],
    each: None,
};
static CONTAINERS: Rule = Rule {
    others: true,
    fields: &[],
    each: Some(&CONTAINER),
};
static POD_SPEC: Rule = Rule {
    others: false,
    fields: &[("containers", &CONTAINERS), ("initContainers", &CONTAINERS)],
    each: None,
};
static TEMPLATE: Rule = Rule {
    others: false,
    fields: &[("spec", &POD_SPEC)],
    each: None,
};
static POD_SET: Rule = Rule {
    others: false,
    fields: &[("name", &ALL), ("count", &ALL), ("template", &TEMPLATE)],
    each: None,
};
static POD_SETS: Rule = Rule {
    others: true,
    fields: &[],
    each: Some(&POD_SET),
};
/// A Workload's `spec` (its queue, priority and pod sets), or a LocalQueue's
/// (`clusterQueue`).
static SPEC: Rule = Rule {
    others: false,
    fields: &[
        ("podSets", &POD_SETS),
        ("queueName", &ALL),
        ("priority", &ALL),
        ("priorityClassName", &ALL),
        ("priorityClassRef", &ALL),
        ("clusterQueue", &ALL),
    ],
    each: None,
};
static CONDITION: Rule = Rule {
    others: false,
    fields: &[
        ("type", &ALL),
        ("status", &ALL),
        ("reason", &ALL),
        ("lastTransitionTime", &ALL),
    ],
    each: None,
};
static CONDITIONS: Rule = Rule {
    others: true,
    fields: &[],
    each: Some(&CONDITION),
};
/// A Workload's `status`: its admission, conditions and eviction counts (a condition's
/// message, the most of a record's text, is not read).
static STATUS: Rule = Rule {
    others: false,
    fields: &[
        ("admission", &ALL),
        ("conditions", &CONDITIONS),
        ("schedulingStats", &ALL),
        ("requeueState", &ALL),
    ],
    each: None,
};
static METADATA: Rule = Rule {
    others: false,
    fields: &[
        ("name", &ALL),
        ("namespace", &ALL),
        ("creationTimestamp", &ALL),
    ],
    each: None,
};
/// An item of a kubectl List (a Workload, a LocalQueue, another kind): what
/// `kueue::Reader` reads of it (the metadata's name, namespace and creation time; the
/// spec's queue, priority and pod sets, a pod template's containers' resources; the
/// status's admission, conditions and eviction counts), and the item's other fields
/// (`kind`, a nested List's `items`) whole.
pub(super) static RECORD: Rule = Rule {
    others: true,
    fields: &[
        ("metadata", &METADATA),
        ("spec", &SPEC),
        ("status", &STATUS),
    ],
    each: None,
};

/// A List item read by [`RECORD`].
pub(super) struct KueueRecord(pub(super) Value);

impl<'de> serde::Deserialize<'de> for KueueRecord {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<KueueRecord, D::Error> {
        serde::de::DeserializeSeed::deserialize(&RECORD, d).map(KueueRecord)
    }
}

impl<'de> serde::de::DeserializeSeed<'de> for &'static Rule {
    type Value = Value;

    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        if self.others && self.fields.is_empty() && self.each.is_none() {
            return <Value as serde::Deserialize>::deserialize(d);
        }
        d.deserialize_any(self)
    }
}

/// As serde_json's own `Value` visitor, but for the fields [`Rule`] drops.
impl<'de> serde::de::Visitor<'de> for &'static Rule {
    type Value = Value;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("any valid JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }

    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(serde_json::Number::from_f64(v).map_or(Value::Null, Value::Number))
    }

    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_string()))
    }

    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }

    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_some<D: serde::Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        serde::de::DeserializeSeed::deserialize(self, d)
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let each = self.each.unwrap_or(&ALL);
        let mut out = Vec::new();
        while let Some(v) = seq.next_element_seed(each)? {
            out.push(v);
        }
        Ok(Value::Array(out))
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut out = Map::new();
        while let Some(k) = map.next_key::<String>()? {
            match self.fields.iter().find(|(n, _)| *n == k) {
                Some((_, rule)) => {
                    let v = map.next_value_seed(*rule)?;
                    out.insert(k, v);
                }
                None if self.others => {
                    let v: Value = map.next_value()?;
                    out.insert(k, v);
                }
                None => {
                    map.next_value::<serde::de::IgnoredAny>()?;
                }
            }
        }
        Ok(Value::Object(out))
    }
}
