//! The hostile agents measured, each a run at a given size that must end in its typed error
//! (checked, so a run that goes wrong fails rather than measures), and the client configuration
//! they are met with: the small decode budget [`MAX_BYTES`].

use std::future::Future;
use std::time::Duration;

use a2a_client::{A2aClient, ClientConfig, ClientError, RetryPolicy};
use a2a_protocol::limits::Limits;
use a2a_types::v1::{GetTaskRequest, Message, Part, SendMessageRequest};

use crate::agent;

/// The decode budget the client is given: no answer, event or card may be larger.
pub const MAX_BYTES: usize = 256 * 1024;

fn config() -> ClientConfig {
    ClientConfig {
        limits: Limits::default().with_max_bytes(MAX_BYTES),
        retry: RetryPolicy::NONE,
        timeout: Duration::from_secs(20),
        ..ClientConfig::default()
    }
}

fn client(base: &str, path: &str, config: ClientConfig) -> A2aClient {
    let card = agent::v1_card(base, &[(path, "JSONRPC")]);
    A2aClient::from_card(card, config).expect("a client")
}

/// A client of the agent at `path` as a v0.3 HTTP+JSON interface (its requests go to `path/v1/...`).
fn v0_3_rest_client(base: &str, path: &str) -> A2aClient {
    let card = a2a_types::v1::AgentCard {
        supported_interfaces: vec![a2a_types::v1::AgentInterface::new(
            format!("{base}{path}"),
            "HTTP+JSON",
            "0.3",
        )],
        ..Default::default()
    };
    A2aClient::from_card(card, config()).expect("a client")
}

fn get() -> GetTaskRequest {
    GetTaskRequest {
        id: "t-1".into(),
        ..Default::default()
    }
}

fn send() -> SendMessageRequest {
    SendMessageRequest {
        message: Message::user("m-1", [Part::text("hi")]),
        ..Default::default()
    }
}

/// One run against a hostile agent: the agents' base URL and the size in, the checked run out.
pub type Run = std::pin::Pin<Box<dyn Future<Output = ()>>>;

/// One hostile agent: its name, the two sizes it is measured at, and one run at a size ending in
/// the typed error it must give (checked here, so a run that goes wrong fails rather than
/// measures).
pub struct Scenario {
    pub name: &'static str,
    pub sizes: [usize; 2],
    pub unit: &'static str,
    pub run: fn(String, usize) -> Run,
}

fn error_chunked(base: String, mib: usize) -> Run {
    Box::pin(async move {
        let failure = client(&base, &format!("/error-chunked/{mib}"), config())
            .get_task(get())
            .await
            .unwrap_err();
        assert!(
            matches!(&failure, ClientError::Transport { message, .. } if message.contains("HTTP 500")),
            "{failure}"
        );
    })
}

fn v0_3_error_chunked(base: String, mib: usize) -> Run {
    Box::pin(async move {
        let failure = v0_3_rest_client(&base, &format!("/error-chunked/{mib}"))
            .get_task(get())
            .await
            .unwrap_err();
        assert!(
            matches!(&failure, ClientError::Transport { message, .. } if message.contains("HTTP 500")),
            "{failure}"
        );
    })
}

fn v0_3_oversized(base: String, mib: usize) -> Run {
    Box::pin(async move {
        let failure = v0_3_rest_client(&base, &format!("/oversized/{mib}"))
            .send_streaming_message(send())
            .await
            .expect("a stream")
            .collect()
            .await
            .unwrap_err();
        assert!(
            matches!(&failure, ClientError::InvalidResponse { message, .. }
                if message.contains(&MAX_BYTES.to_string())),
            "{failure}"
        );
    })
}

fn error_length(base: String, mib: usize) -> Run {
    Box::pin(async move {
        let failure = client(&base, &format!("/error-length/{mib}"), config())
            .get_task(get())
            .await
            .unwrap_err();
        let announced = format!("{} bytes", mib * 1024 * 1024);
        assert!(failure.to_string().contains(&announced), "{failure}");
    })
}

fn endless(base: String, quarter_seconds: usize) -> Run {
    Box::pin(async move {
        let lasting = Duration::from_millis(250 * quarter_seconds as u64);
        let config = ClientConfig {
            stream_timeout: Some(lasting),
            ..config()
        };
        let mut stream = client(&base, "/endless", config)
            .send_streaming_message(send())
            .await
            .expect("a stream");
        let mut events = 0;
        let failure = loop {
            match stream.next().await.expect("no clean end") {
                Ok(_) => events += 1,
                Err(error) => break error,
            }
        };
        assert!(events > 10, "{events} events");
        assert!(
            matches!(&failure, ClientError::Timeout { after, .. } if *after == lasting),
            "{failure}"
        );
    })
}

fn oversized(base: String, mib: usize) -> Run {
    Box::pin(async move {
        let failure = client(&base, &format!("/oversized/{mib}"), config())
            .send_streaming_message(send())
            .await
            .expect("a stream")
            .collect()
            .await
            .unwrap_err();
        assert!(
            matches!(&failure, ClientError::InvalidResponse { message, .. }
                if message.contains(&MAX_BYTES.to_string())),
            "{failure}"
        );
    })
}

fn card_html(base: String, mib: usize) -> Run {
    Box::pin(async move {
        let failure = A2aClient::connect(&format!("{base}/card-html/{mib}"), config())
            .await
            .unwrap_err();
        assert!(
            matches!(&failure, ClientError::InvalidResponse { message, .. }
                if message.contains("max_bytes")),
            "{failure}"
        );
    })
}

pub const SCENARIOS: [Scenario; 7] = [
    Scenario {
        name: "500 error body, no length",
        sizes: [5, 50],
        unit: "MiB",
        run: error_chunked,
    },
    Scenario {
        name: "500 error body, Content-Length",
        sizes: [5, 50],
        unit: "MiB",
        run: error_length,
    },
    Scenario {
        name: "endless event stream",
        sizes: [1, 10],
        unit: "x 0.25 s",
        run: endless,
    },
    Scenario {
        name: "one event over the limit",
        sizes: [5, 50],
        unit: "MiB",
        run: oversized,
    },
    Scenario {
        name: "card that is not JSON",
        sizes: [5, 50],
        unit: "MiB",
        run: card_html,
    },
    Scenario {
        name: "v0.3 HTTP+JSON: 500, no length",
        sizes: [5, 50],
        unit: "MiB",
        run: v0_3_error_chunked,
    },
    Scenario {
        name: "v0.3 HTTP+JSON: event too big",
        sizes: [5, 50],
        unit: "MiB",
        run: v0_3_oversized,
    },
];
