//! `a2a push set|get|list|delete`: a task's push-notification configs (the four
//! `TaskPushNotificationConfig` operations).

use a2a_types::v1::{
    AuthenticationInfo, DeleteTaskPushNotificationConfigRequest,
    GetTaskPushNotificationConfigRequest, ListTaskPushNotificationConfigsRequest,
    TaskPushNotificationConfig,
};

use super::args::{PushCommand, PushConfigArgs, PushSetArgs, TaskArgs};
use super::connect::{block_on, connect, failure};
use super::output::Printer;
use crate::failure::Failure;

/// Runs one `a2a push` subcommand.
pub fn run(command: &PushCommand) -> Result<Vec<u8>, Failure> {
    match command {
        PushCommand::Set(args) => set(args),
        PushCommand::Get(args) => get(args),
        PushCommand::List(args) => list(args),
        PushCommand::Delete(args) => delete(args),
    }
}

fn set(args: &PushSetArgs) -> Result<Vec<u8>, Failure> {
    super::connect::check_url(&args.webhook).map_err(|_| {
        Failure::usage(format!("WEBHOOK: {:?} is not an http(s) URL", args.webhook))
    })?;
    let config = TaskPushNotificationConfig {
        id: args.config_id.clone(),
        task_id: Some(args.task_id.clone()),
        url: args.webhook.clone(),
        token: args.token.clone(),
        authentication: args.auth_scheme.as_ref().map(|scheme| AuthenticationInfo {
            scheme: scheme.clone(),
            credentials: args.auth_credentials.clone(),
        }),
        ..Default::default()
    };
    block_on(async {
        let client = connect(&args.agent).await?;
        let created = client
            .create_task_push_notification_config(config)
            .await
            .map_err(failure)?;
        Printer::new(args.agent.json).push_config(&created)?;
        Ok(Vec::new())
    })
}

fn get(args: &PushConfigArgs) -> Result<Vec<u8>, Failure> {
    block_on(async {
        let client = connect(&args.agent).await?;
        let request = GetTaskPushNotificationConfigRequest {
            task_id: args.task_id.clone(),
            id: args.config_id.clone(),
            ..Default::default()
        };
        let config = client
            .get_task_push_notification_config(request)
            .await
            .map_err(failure)?;
        Printer::new(args.agent.json).push_config(&config)?;
        Ok(Vec::new())
    })
}

fn list(args: &TaskArgs) -> Result<Vec<u8>, Failure> {
    block_on(async {
        let client = connect(&args.agent).await?;
        let request = ListTaskPushNotificationConfigsRequest {
            task_id: args.task_id.clone(),
            ..Default::default()
        };
        let page = client
            .list_task_push_notification_configs(request)
            .await
            .map_err(failure)?;
        let mut printer = Printer::new(args.agent.json);
        if printer.json() {
            printer.json_line(&page)?;
            return Ok(Vec::new());
        }
        for config in &page.configs {
            printer.push_config(config)?;
        }
        printer.line(&format!(
            "{} push configs of task {}",
            page.configs.len(),
            args.task_id
        ))?;
        Ok(Vec::new())
    })
}

fn delete(args: &PushConfigArgs) -> Result<Vec<u8>, Failure> {
    block_on(async {
        let client = connect(&args.agent).await?;
        let request = DeleteTaskPushNotificationConfigRequest {
            task_id: args.task_id.clone(),
            id: args.config_id.clone(),
            ..Default::default()
        };
        client
            .delete_task_push_notification_config(request)
            .await
            .map_err(failure)?;
        let mut printer = Printer::new(args.agent.json);
        if printer.json() {
            printer.line("{}")?;
        } else {
            printer.line(&format!(
                "deleted push config {} of task {}",
                args.config_id, args.task_id
            ))?;
        }
        Ok(Vec::new())
    })
}
