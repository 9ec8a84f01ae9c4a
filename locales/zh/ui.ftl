# 页面 (src/ui/*.rs)：页眉、控件、面板、设置、对话框。

# 页眉、抽屉、快捷键 (src/ui/app.rs)
ui-skip-links = 跳转链接
ui-skip-controls = 跳到播放控件
ui-skip-diagram = 跳到图示
ui-skip-setup = 跳到运行配置
ui-title = 团队协议演练场
ui-tagline = 观看领导和队友协商关机与计划审批——同一个状态机，靠 request_id 关联请求与响应。
ui-recorded-trace = （录制的轨迹）
ui-model = 模型：{ $label }
ui-shortcuts = 键盘快捷键
ui-presenter = 演示模式
ui-presenter-title = 演示模式：控制栏、说明和序列图铺满屏幕，字大到全场都能看清（P）
ui-presenter-leave-title = 退出演示模式（P 或 Esc）
ui-language = 语言
ui-drawer-setup = 配置
ui-drawer-panels = 面板
ui-drawer-setup-title = 运行配置
ui-drawer-panels-title = 团队与协议
ui-close-setup = 关闭运行配置
ui-close-panels = 关闭面板
ui-close = 关闭
ui-more = 展开
ui-less = 收起
ui-said-open = 阅读全文：{ $said }
ui-said-title = 请求 { $id } 中的 { $field }（第 { $step } 步）
ui-key-space = 播放或暂停
ui-key-left = 后退一个事件
ui-key-right = 下一个事件（单步模式下已到末尾时：放行下一个事件）
ui-key-home = 第一个事件
ui-key-end = 最新事件（跟随运行）
ui-key-updown = 在事件日志、请求列表和收件箱中：上一行或下一行（在其中按 Home、End：第一行或最后一行）
ui-key-help = 本帮助
ui-key-esc = 关闭本帮助或已打开的面板抽屉
ui-key-esc-tour = 结束导览（导览进行时）
ui-key-presenter = 开启或关闭演示模式：只显示控制栏、说明和序列图，并放大
ui-key-esc-presenter = 退出演示模式（在关闭抽屉或结束导览之后）
ui-shortcuts-note = 除了在输入框中输入文字时，快捷键在页面任何位置都有效；焦点在按钮上时，按空格键会按下该按钮。
ui-model-failed = { $agent } 的模型调用失败：{ $error }。请检查“设置”中的提供方、密钥和基础 URL，或切换到离线的脚本模型，然后重新运行。
ui-dismiss = 关闭提示

# 链接、剪贴板
ui-link-unknown-scenario = 此链接指向一个本版本没有的场景：'{ $id }'
ui-link-bad = 无法打开此链接：{ $error }。屏幕上的运行保持不变
ui-copy-refused = 浏览器拒绝复制：请选中链接手动复制。
ui-copy-none = 此浏览器在这里无法访问剪贴板：请选中链接手动复制。
ui-copying = 正在复制……
ui-copied = 链接已复制。

# 提示与场景
ui-prompt-empty = 错误：请先为领导输入提示词，或选择一个场景
ui-prompt = 提示词
ui-prompt-label = 给领导的提示词
ui-prompt-placeholder = Spawn alice as a coder. Then request her shutdown.
ui-run-busy = 正在运行：请等待它结束，或按“停止”
ui-run = 运行
ui-new-team = 新团队
ui-will-run = 将使用：{ $provider }
ui-settings-changed = {" "}· 设置已更改：“运行”会启动新团队
ui-fix-settings = {" "}· 请修正设置：{ $why }
ui-scenarios = 场景

# 设置
ui-seed-bad = 种子 '{ $seed }' 不是 0 到 18446744073709551615 之间的整数
ui-max-tokens-bad = 最大 token 数必须是 1 到 { $limit } 之间的整数，而不是 '{ $value }'
ui-settings = 设置
ui-provider = 提供方
ui-scripted-note = 脚本模型在此标签页中离线运行：它是一套基于规则的策略，按场景演示，并对发生的事情作出反应。它不是语言模型。
ui-provider-note = 请求从此标签页直接发往服务器。除非勾选该复选框，密钥只保存在内存中；它绝不会被写入轨迹、导出文件、日志或 URL。
ui-api-key = API 密钥
ui-base-url = 基础 URL
ui-model-name = 模型
ui-max-tokens = 最大 token 数
ui-seed = 种子
ui-remember-key = 在此设备上记住
ui-settings-note = “运行”、“新团队”和场景按所示设置运行；只有在设置未改变时，“运行”才会继续屏幕上的团队。

# 轨迹面板：导出、导入、分享、已保存的运行
ui-export-failed = { $format } 导出失败：{ $error }
ui-error = 错误：{ $error }
ui-import-failed = 错误：{ $error }。没有任何更改。
ui-import-unreadable = 错误：无法读取该文件。没有任何更改。
ui-trace = 轨迹
ui-export-json = 导出 JSON
ui-export-mermaid = 导出 Mermaid
ui-export-svg = 导出 SVG（当前帧）
ui-export-svg-run = 导出 SVG（整个运行）
ui-import = 导入 JSON 轨迹
ui-imported-note = 正在显示录制的轨迹：用“后退”、“下一步”和进度条逐步查看；“运行”会启动新团队。
ui-save-run = 保存运行
ui-share-link = 分享链接
ui-copy = 复制
ui-clear-confirm = 删除所有已保存的运行？
ui-clear-yes = 是的，删除所有已保存的运行
ui-cancel = 取消
ui-clear-saved = 清除已保存的运行
ui-saved-runs = 已保存的运行
ui-delete-saved = 删除已保存的运行 { $title }
ui-delete = 删除

# 总线故障
ui-fault-delay-bad = 延迟 '{ $value }' 不是整数毫秒
ui-fault-probability-bad = 概率 '{ $value }' 不是 0 到 1 之间的数
ui-fault-not-added = { $error }。未添加规则
ui-faults = 总线故障
ui-faults-note = 规则在团队启动时生效（更改设置后“运行”、“新团队”或选择场景）。是否发生故障由种子决定，因此带故障的运行也能精确重放。
ui-fault-action = 动作
ui-fault-action-label = 故障动作
ui-fault-delay = 延迟（毫秒）
ui-fault-delay-label = 故障延迟（毫秒）
ui-fault-type = 消息类型
ui-fault-type-label = 故障消息类型
ui-fault-from = 发送方
ui-fault-from-label = 故障发送方
ui-fault-to = 接收方
ui-fault-to-label = 故障接收方
ui-fault-probability = 概率
ui-fault-probability-label = 故障概率
ui-any = 任意
ui-fault-add = 添加故障规则
ui-fault-rules = 故障规则
ui-fault-delay-ms = 延迟 { $ms } 毫秒
ui-fault-rule = { $action } { $msg_type }，从 { $from } 到 { $to }，p={ $p }
ui-fault-any-message = 任意消息
ui-fault-anyone = 任何人
ui-fault-remove-label = 移除规则：{ $rule }
ui-remove = 移除

# 播放控件
ui-controls = 播放控件
ui-mode = 模式
ui-live = 实时
ui-step = 单步
ui-back-title = 后退一个事件（←）
ui-back = 后退
ui-play-title = 播放或暂停（空格）
ui-pause = 暂停
ui-play = 播放
ui-next-title = 下一个事件（→）
ui-next = 下一步
ui-scrub = 拖动浏览事件
ui-position-title = 已显示的事件 / 已记录的事件
ui-speed = 速度
ui-speed-title = 实时运行与回放的速度：选 2× 或 4× 更快，选 0.5× 或 0.25× 有更多时间阅读
ui-follow = 跟随最新
ui-stop = 停止
ui-next-up = 下一个：{ $events }

# 字幕框 (src/ui/caption_box.rs)
ui-caption-heading = 刚刚发生了什么
ui-caption-start = 开始
ui-caption-step = 事件 { $number }
ui-legend = 图例

# 页面上的导览 (src/ui/tour_view.rs)
ui-tour-announce = 导览第 { $n } 站，共 { $count } 站：{ $title }。{ $text }
ui-tours = 导览
ui-tours-note = 运行一个场景，在关键时刻停下并说明原因。
ui-tour-title = 导览：{ $title }
ui-tour-progress = 第 { $n } 站，共 { $count } 站
ui-tour-waiting = 正在运行场景……运行结束后导览开始。
ui-tour-none = 本次运行中没有出现这个导览的任何时刻（换了模型或故障规则，运行过程因此改变）。请结束导览，或用脚本模型重新运行该场景。
ui-tour-skipped = 导览的 { $count } 个时刻中有 { $missing } 个没有在本次运行中出现，已跳过。
ui-tour-previous = 上一站
ui-tour-next = 下一站
ui-tour-end = 结束导览
ui-tour-over-title = 运行结束
ui-tour-over = 这是本次运行的最后一个事件，第 { $len } 步：导览要看的时刻都已看过。可以用“后退”回看这次运行，或结束导览。

# 场景标题（提示保持原样）
scenario-shutdown-title = 优雅关机
scenario-list-after-shutdown-title = 关机后的状态
scenario-reject-plan-title = 拒绝有风险的计划
scenario-approve-plan-title = 批准一个计划
scenario-reject-then-accept-title = 忙碌的队友：先拒绝，再批准
scenario-out-of-order-title = 两个请求，乱序响应
scenario-scale-title = 规模：50 个队友 × 20 个请求

# 首屏 (src/ui/setup/start_card.rs) 与配置栏的标签页 (src/ui/shell/drawers.rs)
ui-start-title = 从这里开始
ui-start-lead = 领导让一个队友停下。只发一条普通消息，它无法知道她是否真的停了；有了协议，每个请求都会得到一个用 request_id 对应上的响应。
ui-start-tour = 开始本课：先没有协议，再有协议
ui-start-scenarios = 或者运行本课的一个场景
ui-start-tools = 探索每一次运行、注入故障、使用真实模型、导入和导出轨迹：
ui-start-tools-button = 打开工具
ui-setup-tabs = 运行配置的分区
ui-tab-learn = 学习
ui-tab-tools = 工具
ui-tools = 工具
ui-tools-title = 工程师工具：探索每一次运行、总线故障、模型提供方、轨迹导入与导出

# 页面上显示的场景提示词（按第一个包含该提示词的场景命名；模型收到的始终是英文原文）
scenario-shutdown-prompt-1 = 生成 alice，担任程序员。然后请求她关机。
scenario-list-after-shutdown-prompt-2 = 列出队友，查看关机批准后 alice 的状态
scenario-reject-plan-prompt-1 = 生成 bob，交给他一个有风险的重构任务。审查并拒绝他的计划。
scenario-approve-plan-prompt-1 = 生成 charlie，让他提交一个计划，然后批准它。
scenario-reject-then-accept-prompt-1 = 生成 dave，让他迁移三个配置文件。在他做到一半时请求他关机，等他报告完成后再请求一次。
scenario-out-of-order-prompt-1 = 生成 erin 分两部分撰写发布说明，生成 frank 待命，然后请求两人关机；观察响应乱序到达。
scenario-scale-prompt-1 = 规模：生成 50 个队友，然后反复请求每个队友关机直到它同意；每个都拒绝 19 次，批准第 20 个请求。
scenario-without-protocols-prompt-1 = 生成 alice，担任程序员。然后给她发一条消息：“Hey alice, please stop.”
scenario-without-protocols-prompt-2 = 现在请求 alice 关机。
scenario-twins-prompt-1 = 生成 alice 和 bob，都担任程序员。然后请求两人关机。
scenario-respawn-prompt-2 = 生成 alice，担任程序员。

# 面板 (src/ui/panels.rs)
ui-check-title = 协议检查（{ $count }）
ui-cut-findings = 显示 { $total } 条发现中的 { $shown } 条
ui-check-ok = 没有违规：每个响应都来自某个 pending 请求的收件人，并与该请求对应。
ui-check-at = {" "}于 #{ $seq }：{ $detail }
ui-team = 团队
ui-lead-stopped = 领导 · 已停止
ui-lead-role = 领导
ui-plan-mode = {" "}· 计划模式
ui-requests = 请求
ui-no-replay = 无法重放该轨迹。
ui-no-requests = 还没有请求。
ui-request-filter = 查找请求：id 或智能体
ui-request-filter-label = 按 id 或智能体查找请求
ui-cut-requests = 显示 { $total } 个请求中的 { $shown } 个
ui-latency = 耗时 { $latency }
ui-waiting = 等待中
ui-created-at = 创建于 { $at } · { $latency }
ui-transition = { $from } → { $to }，于 { $at }，由 { $by }
ui-answer-label = { $addressee } 对 { $id } 的 { $field }
ui-answer-optional = { $field }（可选）
ui-approve-as = 以 { $name } 身份批准
ui-reject = 拒绝
ui-answer-form-label = 以 { $addressee } 身份回答 { $id }
ui-answer-required = 请填写 { $field }：此回答必须包含它。
ui-answer-whole-number = { $field } 必须是整数，例如 3。
ui-answer-not-listed = { $field } 必须是以下之一：{ $values }。
ui-answer-choose = 请选择…
ui-answer-none = （无）
ui-answer-not-sent = 未发送任何内容。你输入的内容已保留：
ui-inboxes = 收件箱
ui-inbox-request = 来自 { $from } 的 { $msg_type } [{ $id }]
ui-inbox-message = 来自 { $from } 的 { $msg_type }：{ $content }
ui-inbox-unread = { $name }（{ $count } 条未读）
ui-and-more = ……还有 { $count } 条
ui-download-failed = 无法下载 { $path }：{ $error }
ui-workspace = 工作区
ui-no-files = 还没有文件。
ui-download-label = 下载 { $path }
ui-download = 下载
ui-send-pick = 错误：请选择发送方和接收方
ui-send-title = 以……身份发送消息
ui-from = 发送方
ui-to = 接收方
ui-message-text = 消息文本
ui-message-placeholder = 消息
ui-send = 发送
ui-log = 事件日志
ui-log-raw = 显示原始事件
ui-log-label = 事件日志，最新在前

# 消息表
ui-fate-by-fault = 因故障
ui-fate-by-rule = 因故障规则 { $rule }
ui-fate-unread = 未读
ui-fate-read-at = 于 #{ $seq } 读取
ui-fate-delivered = 已送达，{ $read }
ui-fate-dropped = 被丢弃（{ $by }）
ui-fate-held = 被扣留（{ $by }，{ $how }），尚未到达
ui-fate-released = { $how }（{ $by }），于 #{ $at } 到达，{ $read }
ui-fate-duplicate = 被复制（{ $by }，这是副本），{ $read }
ui-fate-delayed = 延迟
ui-fate-reordered = 乱序

# 机制 (src/ui/machinery_view.rs)
ui-machinery = 机制
ui-machinery-intro = 两种协议共用一个状态机；两个以 request_id 为键的 tracker；名册即 config.json。点选一个 tracker 条目，即可在 FSM 上查看它。
ui-machinery-intro-file = 文件中的每个协议共用一个状态机；每个协议一个以 request_id 为键的 tracker；名册即 config.json。点选一个 tracker 条目，即可在 FSM 上查看它。
ui-trackers = Tracker（跟踪表）
ui-fsm-label = 唯一的状态机，pending → approved | rejected，当前是请求 { $id }：{ $state }
ui-fsm-label-empty = 唯一的状态机，pending → approved | rejected；还没有请求
ui-fsm-empty = 还没有请求：领导的 shutdown_request 或队友的 plan_approval 会创建一个，状态为 pending。
ui-fsm-last = { $fsm }（最近变动的请求）
ui-tracker-label = { $name } tracker
ui-cut-members = 显示 { $total } 个队友中的 { $shown } 个
ui-cut-messages = 显示 { $total } 条消息中的 { $shown } 条
ui-sentence = { $text }。
ui-messages-caption = 目前的消息，最新在前：截至第 { $shown } 步（共 { $len } 步）共 { $total } 条。
ui-col-seq = 序号
ui-col-time = 时间
ui-col-from = 发送方
ui-col-to = 接收方
ui-col-type = 类型
ui-col-said = 所说内容
ui-col-fate = 去向
ui-no-messages = 还没有消息。

# 图示 (src/ui/diagram_view.rs)
ui-diagram-label = 时序图：{ $agents } 个智能体，{ $messages } 条消息，{ $requests } 个请求；显示 { $len } 个事件中的 { $shown } 个
ui-zoom-out = 缩小
ui-zoom-in = 放大
ui-fit = 适应宽度
ui-diagram-region = 图示（可滚动）
ui-table-toggle = 以表格显示消息
ui-zoom-group = 图示缩放
ui-fsm-moved = 请求 { $id }（{ $kind }，{ $requester } → { $addressee }）：{ $from } → { $to }，由 { $by } 于 { $at } 完成。
ui-fsm-waiting = 请求 { $id }（{ $kind }，{ $requester } → { $addressee }）：{ $state }，等待 { $addressee } 的响应。
ui-run-cost = 本次运行至此：{ $calls } 次模型调用，{ $spend }。
ui-budget = 每次运行的预算
ui-budget-amount = 预算额度
ui-budget-unit = 预算单位
ui-budget-none = 无
ui-budget-tokens = token
ui-budget-dollars = 美元
ui-budget-note = 每次模型调用之前，把这次调用最多可能的花费——它的提示（约四个字符一个 token）加上回复的 max_tokens——加到本次运行已用的数量上；如果会超出预算，这次调用不会发出，运行像按“停止”一样停止。因此一次运行的花费从不超过预算。美元预算需要下方的模型价格；脚本模型的数量是估算，没有价格。
ui-budget-not-a-number = 预算 '{ $value }' 不是数字；请写一个整数的 token 数或美元金额，或留空表示不设预算
ui-budget-not-positive = 预算必须大于零（留空表示不设预算）
ui-budget-not-whole = token 预算是整数个 token，例如 50000
ui-budget-too-large = 这么大的预算什么也限制不了；留空表示不设预算
ui-prices = 价格（每百万 token 的美元）
ui-prices-note = 保存在此浏览器中。未列出的模型只显示 token 数，从不显示价格。
ui-price-input = 输入
ui-price-output = 输出
ui-price-cache-read = 缓存读取
ui-price-cache-write = 缓存写入
ui-price-taken = 价格取自 { $date }
ui-price-remove = 删除
ui-price-model = 模型 ID
ui-price-add = 添加价格
ui-price-reset = 将价格恢复为默认值
ui-price-no-model = 价格需要模型的 ID（例如 claude-sonnet-4-5）
ui-price-not-a-number = { $field }价格 '{ $value }' 不是每百万 token 的美元数
ui-price-out-of-range = { $field }价格必须在每百万 token 0 到 1000 美元之间
ui-price-bad-date = 价格的取得日期必须写成 YYYY-MM-DD，例如 2026-11-27
