//! Every comparison the benchmarks make: for each payload, each crate's JSON decode and encode against
//! `serde_json::Value` on the same bytes, a2a-types → a2a-proto conversion against a2a-types' own JSON
//! decode of the document, a2a-proto's binary decode against plain prost's, and a client's reading of
//! a JSON-RPC response holding a task or a streamed event against its reading through a `Value`.
//!
//! A contender that cannot read a payload is left out of that payload's rows (and said so on stderr).

use std::hint::black_box;
use std::rc::Rc;

use a2a_benchmarks::{Kind, Payload, plain_prost, thread_cpu_nanos};
use serde::Serialize;
use serde::de::DeserializeOwned;

/// Runs a piece of work `n` times and answers the CPU time it took, in nanoseconds.
pub type Timed = Rc<dyn Fn(u64) -> u64>;

/// One comparison: `contender`'s `work` against `baseline` on `payload`.
pub struct Case {
    /// `decode`, `encode`, `convert`, `binary decode`.
    pub operation: &'static str,
    pub payload: String,
    pub contender: &'static str,
    pub baseline_name: &'static str,
    pub baseline: Timed,
    pub work: Timed,
}

fn timed(work: impl Fn() + 'static) -> Timed {
    Rc::new(move |n| {
        let start = thread_cpu_nanos();
        for _ in 0..n {
            work();
        }
        thread_cpu_nanos() - start
    })
}

fn decode<T: DeserializeOwned>(json: &Rc<str>) -> Option<Timed> {
    if let Err(error) = serde_json::from_str::<T>(json) {
        eprintln!(
            "{} cannot read the payload: {error}",
            std::any::type_name::<T>()
        );
        return None;
    }
    let json = json.clone();
    Some(timed(move || {
        black_box(serde_json::from_str::<T>(black_box(&json)).unwrap());
    }))
}

fn encode<T: DeserializeOwned + Serialize + 'static>(json: &str) -> Option<Timed> {
    let value: T = serde_json::from_str(json).ok()?;
    Some(timed(move || {
        black_box(serde_json::to_vec(black_box(&value)).unwrap());
    }))
}

/// a2a-types' encode: its own generated encoders (`a2a_types::json::to_vec`), the same bytes as
/// `serde_json::to_vec` through its `Serialize` impls.
fn encode_written<T: DeserializeOwned + a2a_types::json::WriteJson + 'static>(
    json: &str,
) -> Option<Timed> {
    let value: T = serde_json::from_str(json).ok()?;
    Some(timed(move || {
        black_box(a2a_types::json::to_vec(black_box(&value)).unwrap());
    }))
}

struct Cases<'a> {
    payload: &'a Payload,
    json: Rc<str>,
    out: &'a mut Vec<Case>,
}

impl Cases<'_> {
    fn add(
        &mut self,
        operation: &'static str,
        contender: &'static str,
        baseline_name: &'static str,
        baseline: &Timed,
        work: Option<Timed>,
    ) {
        match work {
            Some(work) => self.out.push(Case {
                operation,
                payload: self.payload.name.clone(),
                contender,
                baseline_name,
                baseline: baseline.clone(),
                work,
            }),
            None => eprintln!("{operation} {contender}: skipped on {}", self.payload.name),
        }
    }

    /// The rows of one v1 payload read as `T` (a2a-types), `P` (a2a-proto), `L` (a2a-lf), `A`
    /// (a2a-protocol-types) and `B` (plain prost, binary only).
    fn v1<T, P, L, A, B>(&mut self)
    where
        T: DeserializeOwned + Serialize + a2a_types::json::WriteJson + Clone + 'static,
        P: DeserializeOwned + Serialize + prost::Message + Default + Clone + From<T> + 'static,
        L: DeserializeOwned + Serialize + 'static,
        A: DeserializeOwned + Serialize + 'static,
        B: prost::Message + Default + 'static,
    {
        let json = self.json.clone();
        let value_decode = decode::<serde_json::Value>(&json).expect("JSON");
        let value_encode = encode::<serde_json::Value>(&json).expect("JSON");
        self.add(
            "decode",
            "a2a-types",
            "Value",
            &value_decode,
            decode::<T>(&json),
        );
        let proto_json = json.clone();
        self.add(
            "decode",
            "a2a_proto::json",
            "Value",
            &value_decode,
            Some(timed(move || {
                black_box(a2a_proto::json::from_str::<P>(black_box(&proto_json)).unwrap());
            })),
        );
        self.add(
            "decode",
            "a2a-lf 0.4.2",
            "Value",
            &value_decode,
            decode::<L>(&json),
        );
        self.add(
            "decode",
            "a2a-protocol-types 0.15.0",
            "Value",
            &value_decode,
            decode::<A>(&json),
        );

        self.add(
            "encode",
            "a2a-types",
            "Value",
            &value_encode,
            encode_written::<T>(&json),
        );
        let proto: P = a2a_proto::json::from_str(&json).unwrap();
        let proto_out = proto.clone();
        self.add(
            "encode",
            "a2a_proto::json",
            "Value",
            &value_encode,
            Some(timed(move || {
                black_box(a2a_proto::json::to_string(black_box(&proto_out)).unwrap());
            })),
        );
        self.add(
            "encode",
            "a2a-lf 0.4.2",
            "Value",
            &value_encode,
            encode::<L>(&json),
        );
        self.add(
            "encode",
            "a2a-protocol-types 0.15.0",
            "Value",
            &value_encode,
            encode::<A>(&json),
        );

        // The conversion consumes its input: clones are made before the clock starts.
        let types: T = serde_json::from_str(&json).unwrap();
        let convert: Timed = Rc::new(move |n| {
            let inputs: Vec<T> = (0..n).map(|_| types.clone()).collect();
            let start = thread_cpu_nanos();
            for input in inputs {
                black_box(P::from(black_box(input)));
            }
            thread_cpu_nanos() - start
        });
        let types_decode = decode::<T>(&json).expect("a2a-types reads the payload");
        self.add(
            "convert",
            "a2a-types → a2a-proto",
            "a2a-types JSON decode",
            &types_decode,
            Some(convert),
        );

        let bytes: Rc<[u8]> = proto.encode_to_vec().into();
        let plain_bytes = bytes.clone();
        let plain = timed(move || {
            black_box(B::decode(black_box(&*plain_bytes)).unwrap());
        });
        let ours = timed(move || {
            black_box(P::decode(black_box(&*bytes)).unwrap());
        });
        self.add(
            "binary decode",
            "a2a-proto",
            "plain prost",
            &plain,
            Some(ours),
        );
    }

    /// The row of a client reading a JSON-RPC response whose result is the payload (`operation`'s
    /// result): `JsonRpcResponse::from_slice`, which reads a successful response straight into its
    /// result, against the reading through a `Value` it falls back to (the same limits check first).
    fn jsonrpc_response(&mut self, operation: a2a_protocol::operations::Operation) {
        use a2a_protocol::jsonrpc::JsonRpcResponse;
        use a2a_protocol::limits::Limits;
        let body: Rc<[u8]> = format!(r#"{{"jsonrpc":"2.0","id":1,"result":{}}}"#, self.json)
            .into_bytes()
            .into();
        let through_value = body.clone();
        let baseline = timed(move || {
            let body = black_box(&*through_value);
            Limits::default().check_json(body).unwrap();
            let json = a2a_types::json::value_from_slice(body).unwrap();
            black_box(JsonRpcResponse::parse(&json, operation).unwrap());
        });
        assert!(JsonRpcResponse::read_direct(&body, operation).is_some());
        let direct = timed(move || {
            black_box(JsonRpcResponse::from_slice(black_box(&*body), operation).unwrap());
        });
        self.add(
            "read JSON-RPC response",
            "JsonRpcResponse::from_slice",
            "Value, then parse",
            &baseline,
            Some(direct),
        );
    }

    /// The rows of a v0.3 document read as `T` (a2a-types' v0.3 types).
    fn v0_3<T: DeserializeOwned + Serialize + 'static>(&mut self) {
        let json = self.json.clone();
        let value_decode = decode::<serde_json::Value>(&json).expect("JSON");
        let value_encode = encode::<serde_json::Value>(&json).expect("JSON");
        self.add(
            "decode",
            "a2a-types v0_3",
            "Value",
            &value_decode,
            decode::<T>(&json),
        );
        self.add(
            "encode",
            "a2a-types v0_3",
            "Value",
            &value_encode,
            encode::<T>(&json),
        );
    }
}

/// Every comparison, payload by payload.
pub fn all() -> Vec<Case> {
    let mut out = Vec::new();
    for payload in a2a_benchmarks::payloads() {
        let mut cases = Cases {
            json: payload.json.as_str().into(),
            payload: &payload,
            out: &mut out,
        };
        use a2a_proto::v1 as proto;
        use a2a_types::v1 as types;
        match payload.kind {
            Kind::Message => cases.v1::<
                types::Message,
                proto::Message,
                a2a::Message,
                a2a_protocol_types::Message,
                plain_prost::Message,
            >(),
            Kind::Task => {
                cases.v1::<
                    types::Task,
                    proto::Task,
                    a2a::Task,
                    a2a_protocol_types::Task,
                    plain_prost::Task,
                >();
                cases.jsonrpc_response(a2a_protocol::operations::Operation::GetTask);
            }
            Kind::AgentCard => cases.v1::<
                types::AgentCard,
                proto::AgentCard,
                a2a::AgentCard,
                a2a_protocol_types::AgentCard,
                plain_prost::AgentCard,
            >(),
            Kind::StreamResponse => {
                cases.v1::<
                    types::StreamResponse,
                    proto::StreamResponse,
                    a2a::StreamResponse,
                    a2a_protocol_types::StreamResponse,
                    plain_prost::StreamResponse,
                >();
                cases.jsonrpc_response(a2a_protocol::operations::Operation::SendStreamingMessage);
            }
        }
    }
    for payload in a2a_benchmarks::v0_3_payloads() {
        let mut cases = Cases {
            json: payload.json.as_str().into(),
            payload: &payload,
            out: &mut out,
        };
        match payload.kind {
            Kind::StreamResponse => cases.v0_3::<a2a_compat::v0_3::SendStreamingMessageResponse>(),
            Kind::Task => cases.v0_3::<a2a_compat::v0_3::Task>(),
            _ => unreachable!("no other v0.3 payload"),
        }
    }
    out
}
