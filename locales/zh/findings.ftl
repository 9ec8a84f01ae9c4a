# 检查器与探索器的发现（src/ui/finding_words.rs）。请求 ID、智能体名称、消息类型、
# 工具名、状态（pending、approved、rejected、working、idle、shutdown）和事件编号（#12）不翻译。

## 违规的种类
violation-answer-to-unknown-request = 响应了未知的请求
violation-second-answer = 第二次响应
violation-answer-from-wrong-agent = 响应者不是收件人
violation-answer-across-restart = 跨重启的响应
violation-request-across-restart = 跨重启的请求
violation-message-to-exited-teammate = 发给已退出队友的消息
violation-left-pending = 请求一直 pending
violation-answer-lost = 响应丢失
violation-duplicate-delivered = 重复送达
violation-act-after-shutdown = 关机获批后仍有动作
violation-gated-tool-while-closed = 闸门关闭时运行了受其控制的工具
violation-answer-after-expiry = 请求到期后的响应
violation-mark = 协议违规：{ $kind }：{ $detail }

## 片段
finding-fault-rule = 故障规则 { $rule }
finding-fault-any = 某个故障
finding-request = 请求 { $id }
finding-request-no-id = 一个没有 ID 的请求
finding-kind = { $kind ->
    [shutdown] 关机
    [plan] 计划
   *[other] { $kind }
}

## 检查器的发现
finding-answer-unknown = { $from } 响应了{ $request }，但没有这样的{ $kind }请求
finding-answer-wrong-agent = { $from } 响应了{ $request }，而它是发给 { $addressee } 的
finding-answer-across-restart = { $from }（实例 { $incarnation }）响应了{ $kind }{ $request }，而它是发给上一个实例（实例 { $addressed }）的
finding-request-across-restart = { $agent }（实例 { $incarnation }）读到了{ $kind }{ $request }，而它是发给上一个实例（实例 { $addressed }）的
finding-second-answer = { $from } 第二次响应了{ $request }
finding-duplicate = { $fault } 复制了{ $whose }对{ $request }的响应（#{ $seq }）：{ $to } 两次收到同一个响应；{ $tracker }
finding-duplicate-recorded = tracker 只记录了一个响应（{ $status }），忽略了副本
finding-duplicate-unrecorded = tracker 没有记录任何响应
finding-to-exited = { $from } 向 { $to } 发送了 { $msg_type }，而 { $to } 已经关机
finding-arrival-released = ；{ $fault } 一直扣留它（#{ $seq }），直到此刻才放行
finding-arrival-copy = ；它是 { $fault } 制造的副本（#{ $seq }）
finding-pending = 运行结束时，发给 { $addressee } 的{ $kind }{ $request }仍是 pending
finding-pending-dropped = ：{ $fault } 丢弃了该请求（#{ $seq }），{ $addressee } 从未看到它
finding-pending-held = ：{ $fault } 扣留了该请求（#{ $seq }），{ $addressee } 始终没有响应
finding-pending-restarted = ：{ $addressee } 在响应前重启了（实例 { $incarnation }），新的实例不能替旧的实例响应
finding-pending-unrecorded = ；响应到达了，但 tracker 从未记录它
finding-pending-exited = ；{ $addressee } 没有响应就关机了
finding-pending-answered-later = ；之后 { $by } 响应了它，tracker 现在记录它为 { $status }
finding-answer-lost-approved-exits = { $from } 批准了{ $kind }{ $request }并退出；{ $fault } 丢弃了响应（#{ $seq }），{ $to } 永远不知道结果
finding-answer-lost-approved = { $from } 批准了{ $kind }{ $request }；{ $fault } 丢弃了响应（#{ $seq }），{ $to } 永远不知道结果
finding-answer-lost-rejected = { $from } 拒绝了{ $kind }{ $request }；{ $fault } 丢弃了响应（#{ $seq }），{ $to } 永远不知道结果
finding-act-after-shutdown = { $agent } 批准了{ $kind }{ $request }（#{ $seq }），之后却{ $act }，而不是结束本轮并退出
finding-act-model-call = 再次调用模型
finding-act-tool-call = 运行了 { $tool }
finding-act-message = 向 { $to } 发送了 { $msg_type }
finding-gated-tool = { $agent } 在闸门“{ $gate }”关闭时运行了 { $tool }
finding-answer-after-expiry = { $from } 在{ $kind }{ $request }到期之后响应了它

## 探索器自己的发现
finding-no-responder = { $request }（{ $kind }）发给了 { $addressee }，但它没有响应它的工具
finding-approved = { $by } 批准了{ $request }
finding-rejected = { $by } 拒绝了{ $request }
finding-work-before-approval = { $agent } 处于计划模式，却在计划获批前用 { $tool } 修改了工作区
finding-quiet-pending = 所有智能体都空闲了，而 { $requester } 发给 { $addressee } 的{ $kind }{ $request }仍是 pending：没有人会响应它
finding-ended-pending = 运行结束时，发给 { $addressee } 的{ $kind }{ $request }仍是 pending
finding-approved-not-exited = { $agent } 批准了自己的关机，但运行结束时它的状态是 { $status }，而不是 shutdown
finding-stuck = 什么都无法推进，运行却没有结束：团队卡住了
