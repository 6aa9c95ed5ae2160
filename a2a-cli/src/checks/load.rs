//! `a2a load URL`: the load test's batches (`a2a_testkit::load::batches`) against any agent, on
//! every binding its card declares: for each round, operation (SendMessage; a streamed task) and
//! binding, one batch of calls, 32 in flight; then every task made is read back with GetTask over
//! another binding. Prints per binding and operation the calls, errors, requests per second (the
//! median of the batches, with the lowest and highest) and p50/p99 latency, then the lost tasks.
//! The calls use the conformance kits' `messageId` behaviours (`tck-complete-task`,
//! `tck-stream-001`), which the agent must follow: an answer other than theirs counts as an error.
//! Exit status 7 on any error or lost task.

use std::time::Duration;

use a2a_client::A2aClient;
use a2a_testkit::load::batches::{self, Batch, CONCURRENCY, Op};
use a2a_testkit::load::report::{latency_percentiles, spread};

use super::args::LoadArgs;
use super::clients_per_binding;
use crate::call::connect::block_on;
use crate::call::output::Printer;
use crate::failure::Failure;

/// Calls of the warm-up batch per binding and operation, left out of the figures.
const WARM_UP_CALLS: usize = 8;

/// Runs the batches, prints the table and the lost tasks.
pub fn run(args: &LoadArgs) -> Result<Vec<u8>, Failure> {
    if args.rounds == 0 || args.send_calls == 0 || args.stream_calls == 0 {
        return Err(Failure::usage(
            "--rounds, --send-calls and --stream-calls: each at least 1",
        ));
    }
    let mut printer = Printer::new(args.agent.json);
    block_on(async {
        let clients = clients_per_binding(&args.agent).await?;
        if !printer.json() {
            printer.line(&format!(
                "load: {} rounds of {} SendMessage and {} streamed tasks per batch, {CONCURRENCY} in flight, on {}",
                args.rounds,
                args.send_calls,
                args.stream_calls,
                clients
                    .iter()
                    .map(|c| c.binding().to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            ))?;
        }
        let (cells, tasks) = batches_of(&clients, args).await;
        let made = tasks.len();
        let (lost, first_lost) = batches::read_back(&clients, tasks).await;
        let errors: usize = cells.iter().map(|c| c.errors()).sum();
        if printer.json() {
            let rows: Vec<serde_json::Value> = cells.iter().map(Cell::json).collect();
            printer.json_line(&serde_json::json!({
                "agent": args.agent.url,
                "cells": rows,
                "tasks": made,
                "lost": lost,
                "errors": errors,
            }))?;
        } else {
            printer.line(
                "| binding | operation | calls | errors | rps (lowest–highest) | p50 / p99 ms |\n|---|---|---|---|---|---|",
            )?;
            for cell in &cells {
                printer.line(&cell.row())?;
            }
            printer.line(&format!(
                "{made} tasks made, {lost} lost (read back over another binding), {errors} errors"
            ))?;
        }
        let first_errors: Vec<&String> = cells
            .iter()
            .flat_map(|c| c.batches.iter().flat_map(|b| b.first_errors.iter()))
            .chain(&first_lost)
            .take(3)
            .collect();
        if errors + lost > 0 {
            return Err(Failure::nonconformant(format!(
                "{errors} errors, {lost} lost tasks: {first_errors:?}"
            )));
        }
        Ok(Vec::new())
    })
}

/// Every batch of one operation over one binding.
struct Cell {
    binding: String,
    op: Op,
    batches: Vec<Batch>,
}

impl Cell {
    fn errors(&self) -> usize {
        self.batches.iter().map(|b| b.errors).sum()
    }

    fn calls(&self) -> usize {
        self.batches.iter().map(|b| b.calls).sum()
    }

    /// The median, lowest and highest requests per second of the batches (every cell has one).
    fn rps(&self) -> (f64, f64, f64) {
        spread(self.batches.iter().map(Batch::rps).collect()).unwrap_or_default()
    }

    /// p50 and p99 latency over every successful call, in milliseconds.
    fn percentiles(&self) -> Option<(f64, f64)> {
        let millis = |d: Duration| d.as_secs_f64() * 1000.0;
        latency_percentiles(&self.batches).map(|(p50, p99)| (millis(p50), millis(p99)))
    }

    fn row(&self) -> String {
        let (median, low, high) = self.rps();
        let latency = self.percentiles().map_or("–".to_owned(), |(p50, p99)| {
            format!("{p50:.1} / {p99:.1}")
        });
        format!(
            "| {} | {} | {} | {} | {median:.0} ({low:.0}–{high:.0}) | {latency} |",
            self.binding,
            self.op.label(),
            self.calls(),
            self.errors()
        )
    }

    fn json(&self) -> serde_json::Value {
        let (median, low, high) = self.rps();
        let (p50, p99) = self.percentiles().unzip();
        serde_json::json!({
            "binding": self.binding,
            "operation": self.op.label(),
            "calls": self.calls(),
            "errors": self.errors(),
            "rps": {"median": median, "lowest": low, "highest": high},
            "p50Ms": p50,
            "p99Ms": p99,
        })
    }
}

/// A warm-up batch per binding and operation, then the rounds; the cells, and every task made.
async fn batches_of(clients: &[A2aClient], args: &LoadArgs) -> (Vec<Cell>, Vec<String>) {
    let mut tasks = Vec::new();
    let mut sequence = 0;
    for client in clients {
        for op in Op::ALL {
            let warm_up = batches::run(client, op, WARM_UP_CALLS, sequence).await;
            sequence += WARM_UP_CALLS;
            tasks.extend(warm_up.tasks);
        }
    }
    let mut cells: Vec<Cell> = Vec::new();
    for client in clients {
        for op in Op::ALL {
            cells.push(Cell {
                binding: client.binding().to_string(),
                op,
                batches: Vec::new(),
            });
        }
    }
    for _ in 0..args.rounds {
        for op in Op::ALL {
            let calls = match op {
                Op::SendMessage => args.send_calls,
                Op::StreamedTask => args.stream_calls,
            };
            for (position, client) in clients.iter().enumerate() {
                let mut batch = batches::run(client, op, calls, sequence).await;
                sequence += calls;
                tasks.append(&mut batch.tasks);
                let index =
                    position * Op::ALL.len() + Op::ALL.iter().position(|o| *o == op).unwrap_or(0);
                cells[index].batches.push(batch);
            }
        }
    }
    (cells, tasks)
}
