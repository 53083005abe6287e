//! The memory store's push configs: per task, by id, each with its owner and the version of the
//! call that set it.

use std::ops::Bound;

use a2a_types::rt::version::ProtocolVersion;
use a2a_types::v1::TaskPushNotificationConfig;

use super::{ready, MemoryStore};
use crate::store::token;
use crate::store::{
    config_id_for, effective_page_size, stored_config, PushConfigPage, PushConfigStore, PushTarget,
    Scope, StoreFuture,
};

impl PushConfigStore for MemoryStore {
    fn set_push_config<'a>(
        &'a self,
        scope: Scope<'a>,
        task_id: &'a str,
        config: TaskPushNotificationConfig,
    ) -> StoreFuture<'a, TaskPushNotificationConfig> {
        self.set_push_config_from(scope, task_id, config, ProtocolVersion::V1_0)
    }

    fn set_push_config_from<'a>(
        &'a self,
        scope: Scope<'a>,
        task_id: &'a str,
        config: TaskPushNotificationConfig,
        protocol: ProtocolVersion,
    ) -> StoreFuture<'a, TaskPushNotificationConfig> {
        let id = config_id_for(&config);
        let config = stored_config(config, scope.tenant, task_id, id.clone());
        let owner = scope.owner_key();
        let mut inner = self.lock();
        let configs = inner
            .configs
            .entry((scope.tenant_key().to_owned(), task_id.to_owned()))
            .or_default();
        match configs.get_mut(&id) {
            // Another owner's config of that id stays as it is.
            Some((_, other, _)) if other != owner => {}
            Some(slot) => (slot.0, slot.2) = (config.clone(), protocol),
            None => {
                configs.insert(id, (config.clone(), owner.to_owned(), protocol));
            }
        }
        ready(Ok(config))
    }

    fn get_push_config<'a>(
        &'a self,
        scope: Scope<'a>,
        task_id: &'a str,
        config_id: &'a str,
    ) -> StoreFuture<'a, Option<TaskPushNotificationConfig>> {
        let found = self
            .lock()
            .configs
            .get(&(scope.tenant_key().to_owned(), task_id.to_owned()))
            .and_then(|configs| configs.get(config_id))
            .filter(|(_, owner, _)| scope.sees(owner))
            .map(|(config, _, _)| config.clone());
        ready(Ok(found))
    }

    fn push_targets<'a>(
        &'a self,
        scope: Scope<'a>,
        task_id: &'a str,
        limit: u32,
    ) -> StoreFuture<'a, Vec<PushTarget>> {
        let targets = self
            .lock()
            .configs
            .get(&(scope.tenant_key().to_owned(), task_id.to_owned()))
            .map(|configs| {
                configs
                    .values()
                    .filter(|(_, owner, _)| scope.sees(owner))
                    .take(limit as usize)
                    .map(|(config, _, protocol)| PushTarget {
                        config: config.clone(),
                        protocol: *protocol,
                    })
                    .collect()
            })
            .unwrap_or_default();
        ready(Ok(targets))
    }

    fn list_push_configs<'a>(
        &'a self,
        scope: Scope<'a>,
        task_id: &'a str,
        page_size: Option<u32>,
        page_token: Option<&'a str>,
    ) -> StoreFuture<'a, PushConfigPage> {
        let after = match page_token.filter(|t| !t.is_empty()) {
            None => None,
            Some(t) => match token::parse_config_token(t) {
                Ok(id) => Some(id),
                Err(e) => return ready(Err(e)),
            },
        };
        let page_size = effective_page_size(page_size) as usize;
        let inner = self.lock();
        let Some(configs) = inner
            .configs
            .get(&(scope.tenant_key().to_owned(), task_id.to_owned()))
        else {
            return ready(Ok(PushConfigPage::default()));
        };
        let lower = match &after {
            Some(id) => Bound::Excluded(id.as_str()),
            None => Bound::Unbounded,
        };
        let mut page: Vec<&TaskPushNotificationConfig> = configs
            .range::<str, _>((lower, Bound::Unbounded))
            .filter(|(_, (_, owner, _))| scope.sees(owner))
            .map(|(_, (c, _, _))| c)
            .take(page_size + 1)
            .collect();
        let more = page.len() > page_size;
        page.truncate(page_size);
        let next_page_token = more
            .then(|| {
                page.last()
                    .and_then(|c| c.id.as_deref())
                    .map(token::config_token)
            })
            .flatten();
        ready(Ok(PushConfigPage {
            configs: page.into_iter().cloned().collect(),
            next_page_token,
        }))
    }

    fn delete_push_config<'a>(
        &'a self,
        scope: Scope<'a>,
        task_id: &'a str,
        config_id: &'a str,
    ) -> StoreFuture<'a, bool> {
        let mut inner = self.lock();
        let key = (scope.tenant_key().to_owned(), task_id.to_owned());
        let Some(configs) = inner.configs.get_mut(&key) else {
            return ready(Ok(false));
        };
        let removed = match configs.get(config_id) {
            Some((_, owner, _)) if scope.sees(owner) => configs.remove(config_id).is_some(),
            _ => false,
        };
        if configs.is_empty() {
            inner.configs.remove(&key);
        }
        ready(Ok(removed))
    }
}
